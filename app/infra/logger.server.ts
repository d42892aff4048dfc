import { remember } from "@epic-web/remember";
import pino, { type Logger } from "pino";
import pretty from "pino-pretty";
import { getEnv } from "./env.server";

/**
 * A structured JSON logger. Fields that could carry card data or secrets are redacted
 * wherever they appear in a logged object, and every line is masked once written
 * (`maskLongNumbers`): a card number in a path, a query, a header, a body or an error
 * message is never logged, however it is separated or encoded. Time is ISO 8601, so that
 * no field of the line itself is a long run of digits.
 */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level,
    // The pid tells apart the lines of a cluster's workers (WEB_CONCURRENCY).
    base: { service: "raffle", pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
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
    hooks: { streamWrite: maskLongNumbers },
  };
  return destination ? pino(options, destination) : pino(options);
}

/**
 * Lines a person reads (time, level, message, fields), for a terminal: `npm start` and
 * `npm run dev` there. They are made from the JSON lines after masking, so they mask alike.
 */
export function readableLines(destination: number | NodeJS.WritableStream = 1, colorize = false): pino.DestinationStream {
  return pretty({ destination, colorize, sync: true, singleLine: true, translateTime: "SYS:HH:MM:ss", ignore: "service,pid,hostname" });
}

/** The process-wide logger: readable lines on a terminal, JSON lines elsewhere (Fly.io, CI, files). */
export function getLogger(): Logger {
  return remember("raffle:logger", () => createLogger(getEnv().LOG_LEVEL, process.stdout.isTTY ? readableLines(1, true) : undefined));
}

/** A digit, written plainly, percent-encoded once or twice ("%34", "%2534") or full-width ("４"). */
const DIGIT = String.raw`(?:\d|%3\d|%253\d|[\uFF10-\uFF19])`;
/** What may stand between the digits of a number: punctuation or space, plain or percent-encoded (once or twice). */
const SEPARATOR = String.raw`(?:[\s+\-._/\\:,;|~*#=&?]|%(?:25)?(?:2[0-9a-f]|3[a-f]|5[b-f]|7[b-e]))`;
/**
 * 12 or more digits with at most three separators between any two: perhaps a card (13-19
 * digits) or account number, as "4242 4242 …", "4242_4242_…", "4242.4242.…", "4242%204242…"
 * or "%34%32%34%32…".
 */
const LONG_NUMBER = new RegExp(`${DIGIT}(?:${SEPARATOR}{0,3}${DIGIT}){11,}`, "gi");
/** A UUID with a hex letter in it (request ids, row ids): its digit groups are not a number. */
const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;

/** The text with every long run of digits, however separated or encoded, replaced by "[number]". */
export function maskLongNumbers(text: string): string {
  const mask = (part: string) => part.replace(LONG_NUMBER, "[number]");
  let masked = "";
  let last = 0;
  for (const match of text.matchAll(UUID)) {
    if (!/[a-f]/i.test(match[0])) continue;
    masked += mask(text.slice(last, match.index)) + match[0];
    last = match.index + match[0].length;
  }
  return masked + mask(text.slice(last));
}

/** Query parameters whose values are never logged, whatever they hold. */
const SECRET_PARAMETER = /card|cvv|cvc|csc|security|account|routing|password|secret|token|key/i;
/**
 * A request URL as it may be logged: values of parameters named like card or account
 * data are replaced, and so is any long run of digits anywhere (a card number pasted into
 * a link or a GET form). The path and the other parameters stay readable.
 */
export function loggableUrl(url: string): string {
  const [path = "", query] = url.split(/\?(.*)/s, 2);
  const masked = maskLongNumbers;
  if (query === undefined) return masked(path);
  const parameters = query.split("&").map((pair) => {
    const [name = "", value] = pair.split(/=(.*)/s, 2);
    if (value === undefined) return masked(pair);
    return `${masked(name)}=${SECRET_PARAMETER.test(decodeName(name)) ? "[redacted]" : masked(value)}`;
  });
  return masked(`${masked(path)}?${parameters.join("&")}`);
}

function decodeName(name: string): string {
  try {
    return decodeURIComponent(name.replaceAll("+", " "));
  } catch {
    return name;
  }
}
