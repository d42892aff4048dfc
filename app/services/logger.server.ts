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
    // The pid tells apart the lines of a cluster's workers (WEB_CONCURRENCY, ADR 014).
    base: { service: "raffle", pid: process.pid },
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

/** Query parameters whose values are never logged, whatever they hold. */
const SECRET_PARAMETER = /card|cvv|cvc|csc|security|account|routing|password|secret|token|key/i;
/** 12 or more digits, maybe in groups ("4242 4242 …" arrives as "4242+4242" or "4242%204242"): perhaps a card or account number. */
const LONG_NUMBER = /\d(?:(?:[ +-]|%20)?\d){11,}/g;

/**
 * A request URL as it may be logged: values of parameters named like card or account
 * data are replaced, and so is any long run of digits anywhere (a card number pasted into
 * a link or a GET form). The path and the other parameters stay readable.
 */
export function loggableUrl(url: string): string {
  const [path = "", query] = url.split(/\?(.*)/s, 2);
  const masked = (text: string) => text.replace(LONG_NUMBER, "[number]");
  if (query === undefined) return masked(path);
  const parameters = query.split("&").map((pair) => {
    const [name = "", value] = pair.split(/=(.*)/s, 2);
    if (value === undefined) return masked(pair);
    return `${masked(name)}=${SECRET_PARAMETER.test(decodeName(name)) ? "[redacted]" : masked(value)}`;
  });
  return `${masked(path)}?${parameters.join("&")}`;
}

function decodeName(name: string): string {
  try {
    return decodeURIComponent(name.replaceAll("+", " "));
  } catch {
    return name;
  }
}
