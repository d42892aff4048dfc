import pino, { type Logger } from "pino";
import { getEnv } from "./env.server";

const globalForLogger = globalThis as unknown as { __raffleLogger?: Logger };

/**
 * The process-wide structured JSON logger. Fields that could carry card data or
 * secrets are redacted wherever they appear in a logged object.
 */
export function getLogger(): Logger {
  globalForLogger.__raffleLogger ??= pino({
    level: getEnv().LOG_LEVEL,
    base: { service: "raffle" },
    redact: {
      paths: [
        "password",
        "*.password",
        "cvv",
        "*.cvv",
        "cardNumber",
        "*.cardNumber",
        "accountInfo",
        "*.accountInfo",
        "req.headers.cookie",
        'res.headers["set-cookie"]',
      ],
      censor: "[redacted]",
    },
  });
  return globalForLogger.__raffleLogger;
}
