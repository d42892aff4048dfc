import { forget, remember } from "@epic-web/remember";
import { z } from "zod";
import { parseJurisdictions, type Jurisdictions } from "~/shared/jurisdictions";

/**
 * The process configuration, parsed once from the environment at start-up.
 * Every variable is documented in docs/configuration.md; keep the two in step.
 */
const booleanFlag = z.enum(["true", "false", "1", "0"], { message: "expected true or false" }).transform((value) => value === "true" || value === "1");

/** "reward:weight,…" in coins, e.g. the default "5:50,10:30,25:15,50:5". */
const spinWeights = z
  .string()
  .regex(/^\d{1,6}:\d{1,6}(,\d{1,6}:\d{1,6})*$/, 'expected "coins:weight,coins:weight,…"')
  .transform((text) => text.split(",").map((pair) => pair.split(":").map(Number) as [number, number]))
  .refine((pairs) => pairs.every(([reward, weight]) => reward > 0 && weight > 0), "expected positive coins and weights")
  .transform((pairs) => pairs.map(([reward, weight]) => ({ reward: BigInt(reward), weight })));

/** "GB,IE,US-NJ": countries (everywhere in them) and regions (only there) where players may sign up. */
const jurisdictions = z.string().transform((text, ctx) => {
  const parsed = parseJurisdictions(text);
  if (typeof parsed === "string") {
    ctx.addIssue({ code: "custom", message: parsed });
    return z.NEVER;
  }
  return parsed;
});

/** "https://relay-a,https://relay-b": the drand HTTP relays a draw's beacon round is fetched from. */
const beaconUrls = z
  .string()
  .transform((text) =>
    text
      .split(",")
      .map((url) => url.trim().replace(/\/+$/, ""))
      .filter(Boolean),
  )
  .refine(
    (urls) => (urls.length === 1 && urls[0] === "off") || (urls.length > 0 && urls.every((url) => /^https?:\/\/[^\s/]+/.test(url))),
    'expected http(s) URLs, comma-separated, or "off"',
  );

/** drand's public HTTP relays of quicknet: the beacon by default with Stripe keys (issue 34). */
export const DRAND_RELAYS = ["https://api.drand.sh", "https://api2.drand.sh", "https://api3.drand.sh", "https://drand.cloudflare.com"];

/** The beacon chain as its relays publish it at /{hash}/info (drand's JSON); unset: quicknet. */
const beaconChainInfo = z.string().transform((text, ctx) => {
  const parsed = z
    .object({
      public_key: z.string().regex(/^([0-9a-f]{2}){96}$/),
      period: z.number().int().positive(),
      genesis_time: z.number().int().positive(),
      hash: z.string().regex(/^[0-9a-f]{64}$/),
      schemeID: z.literal("bls-unchained-g1-rfc9380"),
      metadata: z.object({ beaconID: z.string() }).optional(),
    })
    .safeParse(
      (() => {
        try {
          return JSON.parse(text);
        } catch {
          return undefined;
        }
      })(),
    );
  if (!parsed.success) {
    ctx.addIssue({ code: "custom", message: "expected drand chain info JSON (public_key, period, genesis_time, hash, schemeID bls-unchained-g1-rfc9380)" });
    return z.NEVER;
  }
  const info = parsed.data;
  return {
    hash: info.hash,
    publicKey: info.public_key,
    scheme: info.schemeID,
    periodSeconds: info.period,
    genesisTime: info.genesis_time,
    beaconId: info.metadata?.beaconID,
  };
});

/** Where demo mode takes players when ALLOWED_COUNTRIES is unset. */
export const DEMO_ALLOWED_COUNTRIES = "GB,IE,MT,CA-ON,US-NJ,US-PA";

const schema = z.object({
  NODE_ENV: z
    .enum(["development", "production", "test"], {
      message: "expected development, production or test",
    })
    .default("development"),
  PORT: z.coerce
    .number({ message: "expected a port number" })
    .int("expected a port number")
    .min(0, "expected a port number")
    .max(65535, "expected a port number")
    .default(3000),
  /**
   * How many worker processes answer requests (node:cluster); one per core is the deploy's
   * usual choice. Each opens up to 11 database connections (its pool of 10 and one to listen).
   */
  WEB_CONCURRENCY: z.coerce
    .number({ message: "expected a whole number of workers" })
    .int("expected a whole number of workers")
    .min(1, "expected at least 1 worker")
    .max(16, "expected at most 16 workers")
    .default(1),
  HOST: z.string().min(1, "expected a host name or address").default("0.0.0.0"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "expected a postgres:// or postgresql:// URL")
    .optional(),
  DATA_DIR: z.string().min(1, "expected a directory path").default(".data"),
  LOG_LEVEL: z
    .enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"], {
      message: "expected one of fatal, error, warn, info, debug, trace, silent",
    })
    .default("info"),
  SESSION_SECRET: z.string().min(32, "expected at least 32 characters").optional(),
  /** Keys what must outlive SESSION_SECRET's rotation (ADR 086): person keys, the receipts' signing key. Never changed. */
  LASTING_SECRET: z.string().min(32, "expected at least 32 characters").optional(),
  STRIPE_SECRET_KEY: z
    .string()
    .regex(/^(sk|rk)_(test|live)_\w+$/, "expected a Stripe secret key (sk_test_… or sk_live_…)")
    .optional(),
  STRIPE_PUBLISHABLE_KEY: z
    .string()
    .regex(/^pk_(test|live)_\w+$/, "expected a Stripe publishable key (pk_test_… or pk_live_…)")
    .optional(),
  STRIPE_WEBHOOK_SECRET: z
    .string()
    .regex(/^whsec_\w+$/, "expected a Stripe webhook signing secret (whsec_…)")
    .optional(),
  /** Only for tests: where the Stripe SDK sends its requests (a local server that speaks Stripe's API). */
  STRIPE_API_URL: z.url("expected a URL like http://127.0.0.1:12111").optional(),
  /** 32 bytes, base64: encrypts stored payout details (AES-256-GCM). */
  PAYOUT_ENCRYPTION_KEY: z
    .string()
    .refine((v) => Buffer.from(v, "base64").length === 32, "expected 32 bytes, base64-encoded")
    .optional(),
  /** Payouts above this many cents need two different admins' approval. */
  PAYOUT_SECOND_APPROVAL_ABOVE_CENTS: z.coerce.number({ message: "expected a whole number of cents" }).int().positive().default(50_000),
  /** Days the back office has to answer a complaint (docs/decisions/081-complaints.md). */
  COMPLAINT_ANSWER_DAYS: z.coerce
    .number({ message: "expected a whole number of days" })
    .int()
    .min(1, "expected 1 or more")
    .max(90, "expected at most 90")
    .default(14),
  /** Sign-ups allowed per client address per hour (raise it behind a large shared NAT, or for test runs). */
  SIGNUP_LIMIT_PER_HOUR: z.coerce.number({ message: "expected a whole number" }).int().positive().default(20),
  /** Raffle entries one player may make per second (raised only by the benchmark, bench/). */
  ENTRY_LIMIT_PER_SECOND: z.coerce.number({ message: "expected a whole number" }).int().positive().default(10),
  /** Where players write to: required outside demo mode, a clearly demo address in it. */
  SUPPORT_EMAIL: z.email("expected an email address").optional(),
  /** Where mail goes (smtp:// or smtps://, user and password in the URL); unset, it is written as .eml files under DATA_DIR/mail. */
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/[^\s]+$/, "expected an smtp:// or smtps:// URL")
    .optional(),
  /** The sender of every message, like "Raffle Rush <no-reply@raffle.example>". */
  MAIL_FROM: z.string().min(3, "expected an address like Raffle Rush <no-reply@raffle.example>").default("Raffle Rush <no-reply@raffle-rush.invalid>"),
  /**
   * Demo mode on purpose: without Stripe keys, demo mode is on with the embedded database or
   * with DEMO_MODE=true, and nowhere else (a server with DATABASE_URL refuses to start).
   * Stripe keys always mean real mode.
   */
  DEMO_MODE: booleanFlag.optional(),
  /**
   * How many simulated, labelled demo players play in a demo; 0 turns them off.
   * Default: 12 in demo mode. Refused with Stripe keys.
   */
  DEMO_CROWD: z.coerce
    .number({ message: "expected a whole number of demo players" })
    .int("expected a whole number of demo players")
    .min(0, "expected 0 (off) or more demo players")
    .max(50, "expected at most 50 demo players")
    .optional(),
  /** Tests only: the demo crowd's pauses between actions are divided by this (1: human-like). */
  DEMO_CROWD_SPEEDUP: z.coerce.number({ message: "expected a number" }).min(1, "expected 1 or more").max(100, "expected at most 100").default(1),
  SEED_ON_START: booleanFlag.optional(),
  SEED_DEMO_USERS: booleanFlag.optional(),
  SCHEDULER_ENABLED: booleanFlag.default(true),
  ADMIN_ACCESS_KEY: z.string().min(12, "expected at least 12 characters").optional(),
  /** The bearer token of GET /metrics; unset, /metrics is 404. */
  METRICS_TOKEN: z.string().min(24, "expected at least 24 characters").optional(),
  /** How often, at most, /metrics's ledger check reads every posting (in the background; its cost grows with the ledger). */
  METRICS_LEDGER_CHECK_SECONDS: z.coerce.number({ message: "expected a number of seconds" }).positive("expected a number of seconds").default(60),
  OAUTH_ISSUER: z.url("expected the issuer URL of an OpenID Connect provider").optional(),
  OAUTH_CLIENT_ID: z.string().min(1).optional(),
  OAUTH_CLIENT_SECRET: z.string().min(1).optional(),
  PUBLIC_URL: z.url("expected the site's public URL, like https://raffle.example").optional(),
  CLIENT_IP_HEADER: z
    .string()
    .regex(/^[a-z0-9-]+$/i, "expected a header name, like fly-client-ip")
    .transform((name) => name.toLowerCase())
    .optional(),
  ALLOWED_COUNTRIES: jurisdictions.optional(),
  /** Live event streams one process serves at once; more are 429. */
  EVENT_STREAMS_MAX: z.coerce.number({ message: "expected a whole number" }).int().positive().default(2000),
  /** The longest a live event stream lives before the server ends it and the browser opens another. */
  EVENT_STREAM_MAX_SECONDS: z.coerce
    .number({ message: "expected a number of seconds" })
    .positive("expected a number of seconds")
    .max(86_400, "expected at most 86400 seconds")
    .default(900),
  /**
   * Cookies marked Secure, the session's named `__Host-session`. Default: on in
   * production. `false` only for a demo served over plain HTTP to another host than localhost.
   */
  SECURE_COOKIES: booleanFlag.optional(),
  /** How long a client has to send a whole request, headers and body; tests shorten it. */
  REQUEST_TIMEOUT_SECONDS: z.coerce
    .number({ message: "expected a number of seconds" })
    .positive("expected a number of seconds")
    .max(300, "expected at most 300 seconds")
    .default(30),
  /** Tests only: how many seconds one "minute" of the reality check's interval lasts. */
  REALITY_CHECK_MINUTE_SECONDS: z.coerce.number({ message: "expected a number of seconds" }).positive("expected a number of seconds").default(60),
  /**
   * The drand relays. Unset: drand's public relays with Stripe keys, no
   * beacon in a demo; "off": raffles are committed and drawn without a beacon, and say so.
   */
  BEACON_URLS: beaconUrls.optional(),
  BEACON_CHAIN_INFO: beaconChainInfo.optional(),
  /** How long after its round's time a beacon round may take before the raffle is cancelled and refunded. */
  BEACON_DEADLINE_SECONDS: z.coerce
    .number({ message: "expected a number of seconds" })
    .positive("expected a number of seconds")
    .max(600, "expected at most 600 seconds")
    .default(60),
  SPIN_WHEEL_WEIGHTS: spinWeights.default(spinWeights.parse("5:50,10:30,25:15,50:5")),
});

/** Demo players in a demo when DEMO_CROWD is unset: enough for two-player rounds within a minute. */
export const DEFAULT_DEMO_CROWD = 12;

/** The admin gate's key in demo mode only (the README prints it). */
export const DEMO_ADMIN_ACCESS_KEY = "demo-admin-access-key";

/** The support address a demo shows when none is configured: no one reads it, and it says so. */
export const DEMO_SUPPORT_EMAIL = "no-one-reads-this@demo.invalid";

export type Env = Omit<z.infer<typeof schema>, "ADMIN_ACCESS_KEY" | "ALLOWED_COUNTRIES" | "SUPPORT_EMAIL" | "DEMO_CROWD"> & {
  /** Demo players the demo crowd keeps playing (0: none; always 0 outside demo mode). */
  DEMO_CROWD: number;
  ADMIN_ACCESS_KEY: string;
  SUPPORT_EMAIL: string;
  ALLOWED_COUNTRIES: Jurisdictions;
  /**
   * No real payment provider, on purpose (DEMO_MODE=true, or the embedded database without
   * Stripe keys): demo payments, demo users, generated secrets, a banner on every page.
   */
  demoMode: boolean;
  /** Cookies are Secure and the session cookie `__Host-session` (production, unless SECURE_COOKIES=false in demo mode). */
  secureCookies: boolean;
  /** BEACON_URLS=off: the operator turned the beacon off on purpose (BEACON_URLS is then unset). */
  beaconOff: boolean;
};

export class ConfigError extends Error {
  name = "ConfigError";
}

/** Parses `source`; throws a ConfigError whose message is one line naming the variable. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== undefined && value !== ""));
  const result = schema.safeParse(cleaned);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const name = issue.path.join(".");
    const value = typeof cleaned[name] === "string" ? ` (got "${String(cleaned[name]).slice(0, 40)}")` : "";
    throw new ConfigError(`Invalid configuration: ${name} ${issue.message}${value}`);
  }
  const env = result.data;
  const demoMode = env.STRIPE_SECRET_KEY === undefined;
  const beaconOff = env.BEACON_URLS?.[0] === "off";
  // Demo mode is never a silent fallback: a deploy (a DATABASE_URL) that lost its Stripe keys
  // must not start taking sign-ups with test cards and the published demo admin key.
  const stripeUnset = ["STRIPE_SECRET_KEY", "STRIPE_PUBLISHABLE_KEY"].filter((name) => cleaned[name] === undefined);
  const unsetNames = stripeUnset.join(" and ") + (stripeUnset.length > 1 ? " are unset" : " is unset");
  if (demoMode && env.DEMO_MODE === false) {
    throw new ConfigError(`Invalid configuration: DEMO_MODE=false needs real payments, but ${unsetNames}`);
  }
  if (demoMode && env.DEMO_MODE === undefined && env.DATABASE_URL !== undefined) {
    throw new ConfigError(`Invalid configuration: ${unsetNames} while DATABASE_URL is set: set them for real payments, or DEMO_MODE=true for a demo`);
  }
  // Simulated players must never share a site with real money.
  if (!demoMode && env.DEMO_CROWD !== undefined && env.DEMO_CROWD > 0) {
    throw new ConfigError("Invalid configuration: DEMO_CROWD is for demos only, not with STRIPE_SECRET_KEY set (set DEMO_CROWD=0 or unset it)");
  }
  if (!demoMode && env.STRIPE_PUBLISHABLE_KEY === undefined) {
    throw new ConfigError("Invalid configuration: STRIPE_PUBLISHABLE_KEY is required when STRIPE_SECRET_KEY is set");
  }
  if (!demoMode && env.SESSION_SECRET === undefined) {
    throw new ConfigError("Invalid configuration: SESSION_SECRET is required when STRIPE_SECRET_KEY is set (at least 32 characters)");
  }
  const oauth = [env.OAUTH_ISSUER, env.OAUTH_CLIENT_ID, env.OAUTH_CLIENT_SECRET];
  if (oauth.some((v) => v !== undefined) && oauth.some((v) => v === undefined)) {
    throw new ConfigError("Invalid configuration: OAUTH_ISSUER, OAUTH_CLIENT_ID and OAUTH_CLIENT_SECRET must be set together");
  }
  if (!demoMode && env.PAYOUT_ENCRYPTION_KEY === undefined) {
    throw new ConfigError("Invalid configuration: PAYOUT_ENCRYPTION_KEY is required when STRIPE_SECRET_KEY is set (32 bytes, base64)");
  }
  if (!demoMode && env.ADMIN_ACCESS_KEY === undefined) {
    throw new ConfigError("Invalid configuration: ADMIN_ACCESS_KEY is required when STRIPE_SECRET_KEY is set (at least 12 characters)");
  }
  if (!demoMode && env.ALLOWED_COUNTRIES === undefined) {
    throw new ConfigError("Invalid configuration: ALLOWED_COUNTRIES is required when STRIPE_SECRET_KEY is set (where you are licensed, like GB,US-NJ)");
  }
  if (!demoMode && env.SUPPORT_EMAIL === undefined) {
    throw new ConfigError("Invalid configuration: SUPPORT_EMAIL is required when STRIPE_SECRET_KEY is set (the address players write to)");
  }
  if (!demoMode && env.LASTING_SECRET === undefined) {
    throw new ConfigError(
      "Invalid configuration: LASTING_SECRET is required when STRIPE_SECRET_KEY is set (at least 32 characters, never changed; an existing site sets it to its SESSION_SECRET)",
    );
  }
  if (!demoMode && env.NODE_ENV === "production" && env.SECURE_COOKIES === false) {
    throw new ConfigError("Invalid configuration: SECURE_COOKIES=false is for demos only, not with STRIPE_SECRET_KEY set");
  }
  return {
    ...env,
    secureCookies: env.SECURE_COOKIES ?? env.NODE_ENV === "production",
    ADMIN_ACCESS_KEY: env.ADMIN_ACCESS_KEY ?? DEMO_ADMIN_ACCESS_KEY,
    SUPPORT_EMAIL: env.SUPPORT_EMAIL ?? DEMO_SUPPORT_EMAIL,
    ALLOWED_COUNTRIES: env.ALLOWED_COUNTRIES ?? (parseJurisdictions(DEMO_ALLOWED_COUNTRIES) as Jurisdictions),
    DEMO_CROWD: demoMode ? (env.DEMO_CROWD ?? DEFAULT_DEMO_CROWD) : 0,
    demoMode,
    BEACON_URLS: beaconOff ? undefined : (env.BEACON_URLS ?? (demoMode ? undefined : DRAND_RELAYS)),
    beaconOff,
  };
}

/**
 * The configuration of this process, parsed on first use and then kept (remember: one per
 * process, though server.ts and the Remix build each carry a copy of this module).
 */
export function getEnv(): Env {
  return remember("raffle:env", () => parseEnv(process.env));
}

/** Parses the environment again on next use: for tests that change process.env between files. */
export function forgetEnv(): void {
  forget("raffle:env");
}
