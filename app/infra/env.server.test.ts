import { describe, expect, it } from "vitest";
import { ConfigError, DEMO_SUPPORT_EMAIL, DRAND_RELAYS, parseEnv } from "./env.server";

/** Everything real mode (Stripe keys) requires. */
const REAL = {
  STRIPE_SECRET_KEY: "sk_live_abc",
  STRIPE_PUBLISHABLE_KEY: "pk_live_abc",
  SESSION_SECRET: "x".repeat(32),
  LASTING_SECRET: "y".repeat(32),
  ADMIN_ACCESS_KEY: "a-real-admin-key",
  PAYOUT_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString("base64"),
  ALLOWED_COUNTRIES: "GB",
  SUPPORT_EMAIL: "help@raffle.example",
};

describe("parseEnv", () => {
  it("applies the documented defaults", () => {
    const env = parseEnv({});
    expect(env).toMatchObject({ NODE_ENV: "development", PORT: 3000, DATA_DIR: ".data", LOG_LEVEL: "info", ENTRY_LIMIT_PER_SECOND: 10, demoMode: true });
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.ALLOWED_COUNTRIES).toEqual({ countries: ["GB", "IE", "MT"], regions: { CA: ["CA-ON"], US: ["US-NJ", "US-PA"] } });
  });

  it("runs the demo crowd in demo mode only (ADR 074): 12 players unless DEMO_CROWD says otherwise", () => {
    expect(parseEnv({}).DEMO_CROWD).toBe(12);
    expect(parseEnv({ DEMO_CROWD: "0" }).DEMO_CROWD).toBe(0);
    expect(parseEnv({ DEMO_CROWD: "3" }).DEMO_CROWD).toBe(3);
    const real = {
      STRIPE_SECRET_KEY: "sk_test_abc",
      STRIPE_PUBLISHABLE_KEY: "pk_test_abc",
      SESSION_SECRET: "x".repeat(32),
      LASTING_SECRET: "y".repeat(32),
      PAYOUT_ENCRYPTION_KEY: Buffer.alloc(32).toString("base64"),
      ADMIN_ACCESS_KEY: "a-real-admin-key",
      ALLOWED_COUNTRIES: "GB",
      SUPPORT_EMAIL: "help@raffle.example",
    };
    expect(parseEnv(real).DEMO_CROWD).toBe(0);
    expect(parseEnv({ ...real, DEMO_CROWD: "0" }).DEMO_CROWD).toBe(0);
  });

  it("treats empty values as unset", () => {
    expect(parseEnv({ PORT: "", DATABASE_URL: "" }).PORT).toBe(3000);
  });

  it.each([
    [{ PORT: "abc" }, /^Invalid configuration: PORT expected a port number \(got "abc"\)$/],
    [{ PORT: "70000" }, /^Invalid configuration: PORT /],
    [{ DATABASE_URL: "mysql://x" }, /^Invalid configuration: DATABASE_URL expected a postgres/],
    [{ LOG_LEVEL: "loud" }, /^Invalid configuration: LOG_LEVEL expected one of/],
    [{ SESSION_SECRET: "short" }, /^Invalid configuration: SESSION_SECRET expected at least 32 characters/],
    [{ STRIPE_SECRET_KEY: "sk_test_abc" }, /STRIPE_PUBLISHABLE_KEY is required/],
    [{ STRIPE_SECRET_KEY: "sk_test_abc", STRIPE_PUBLISHABLE_KEY: "pk_test_abc" }, /SESSION_SECRET is required when STRIPE_SECRET_KEY is set/],
    [{ STRIPE_SECRET_KEY: "sk_test_abc", STRIPE_PUBLISHABLE_KEY: "pk_test_abc", SESSION_SECRET: "x".repeat(32) }, /PAYOUT_ENCRYPTION_KEY is required/],
    [
      {
        STRIPE_SECRET_KEY: "sk_test_abc",
        STRIPE_PUBLISHABLE_KEY: "pk_test_abc",
        SESSION_SECRET: "x".repeat(32),
        PAYOUT_ENCRYPTION_KEY: Buffer.alloc(32).toString("base64"),
      },
      /ADMIN_ACCESS_KEY is required/,
    ],
    [
      {
        STRIPE_SECRET_KEY: "sk_test_abc",
        STRIPE_PUBLISHABLE_KEY: "pk_test_abc",
        SESSION_SECRET: "x".repeat(32),
        PAYOUT_ENCRYPTION_KEY: Buffer.alloc(32).toString("base64"),
        ADMIN_ACCESS_KEY: "a-real-admin-key",
      },
      /ALLOWED_COUNTRIES is required/,
    ],
    [
      {
        STRIPE_SECRET_KEY: "sk_test_abc",
        STRIPE_PUBLISHABLE_KEY: "pk_test_abc",
        SESSION_SECRET: "x".repeat(32),
        PAYOUT_ENCRYPTION_KEY: Buffer.alloc(32).toString("base64"),
        ADMIN_ACCESS_KEY: "a-real-admin-key",
        ALLOWED_COUNTRIES: "GB",
      },
      /^Invalid configuration: SUPPORT_EMAIL is required when STRIPE_SECRET_KEY is set/,
    ],
    [
      { ...REAL, LASTING_SECRET: "" },
      /^Invalid configuration: LASTING_SECRET is required when STRIPE_SECRET_KEY is set \(at least 32 characters, never changed/,
    ],
    [{ LASTING_SECRET: "short" }, /^Invalid configuration: LASTING_SECRET expected at least 32 characters/],
    [{ SUPPORT_EMAIL: "support" }, /^Invalid configuration: SUPPORT_EMAIL expected an email address/],
    [{ ALLOWED_COUNTRIES: "GB,England" }, /^Invalid configuration: ALLOWED_COUNTRIES expected country codes like GB/],
    [{ ALLOWED_COUNTRIES: "GB,QQ" }, /ALLOWED_COUNTRIES QQ is not an ISO 3166-1 country code/],
    [{ REALITY_CHECK_MINUTE_SECONDS: "0" }, /REALITY_CHECK_MINUTE_SECONDS expected a number of seconds/],
    [{ PAYOUT_ENCRYPTION_KEY: "c2hvcnQ=" }, /PAYOUT_ENCRYPTION_KEY expected 32 bytes/],
    [{ ENTRY_LIMIT_PER_SECOND: "0" }, /^Invalid configuration: ENTRY_LIMIT_PER_SECOND /],
    [{ OAUTH_ISSUER: "https://id.example" }, /must be set together/],
    [{ CLIENT_IP_HEADER: "x forwarded" }, /^Invalid configuration: CLIENT_IP_HEADER expected a header name/],
    [
      { NODE_ENV: "production", DATABASE_URL: "postgres://db.internal/raffle" },
      /^Invalid configuration: STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY are unset while DATABASE_URL is set: set them for real payments, or DEMO_MODE=true for a demo$/,
    ],
    [
      { DATABASE_URL: "postgres://db.internal/raffle", STRIPE_PUBLISHABLE_KEY: "pk_live_abc" },
      /^Invalid configuration: STRIPE_SECRET_KEY is unset while DATABASE_URL is set/,
    ],
    [{ DEMO_MODE: "false" }, /^Invalid configuration: DEMO_MODE=false needs real payments, but STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY are unset$/],
    [{ DEMO_MODE: "yes" }, /^Invalid configuration: DEMO_MODE expected true or false/],
    [{ STRIPE_SECRET_KEY: "sk_live_abc", DEMO_CROWD: "12" }, /^Invalid configuration: DEMO_CROWD is for demos only, not with STRIPE_SECRET_KEY set/],
    [{ DEMO_CROWD: "many" }, /^Invalid configuration: DEMO_CROWD expected a whole number of demo players/],
    [{ DEMO_CROWD: "-1" }, /^Invalid configuration: DEMO_CROWD expected 0 \(off\) or more demo players/],
  ])("refuses %o with one line naming the variable", (source, message) => {
    expect(() => parseEnv(source)).toThrow(ConfigError);
    expect(() => parseEnv(source)).toThrow(message);
    try {
      parseEnv(source);
    } catch (error) {
      expect((error as Error).message).not.toContain("\n");
    }
  });

  it("turns demo mode on only on purpose: the embedded database or DEMO_MODE=true", () => {
    expect(parseEnv({ NODE_ENV: "production" }).demoMode).toBe(true);
    expect(parseEnv({ NODE_ENV: "production", DATABASE_URL: "postgres://db.internal/raffle", DEMO_MODE: "true" }).demoMode).toBe(true);
    expect(parseEnv({ DEMO_MODE: "1" }).demoMode).toBe(true);
  });

  it("leaves demo mode when Stripe is configured", () => {
    const env = parseEnv({
      STRIPE_SECRET_KEY: "sk_live_abc",
      STRIPE_PUBLISHABLE_KEY: "pk_live_abc",
      SESSION_SECRET: "x".repeat(32),
      LASTING_SECRET: "y".repeat(32),
      ADMIN_ACCESS_KEY: "a-real-admin-key",
      PAYOUT_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString("base64"),
      ALLOWED_COUNTRIES: "gb, us-nj,US-PA,US-NJ",
      SUPPORT_EMAIL: "help@raffle.example",
      // Stripe keys always mean real mode.
      DEMO_MODE: "true",
      DATABASE_URL: "postgres://db.internal/raffle",
    });
    expect(env.demoMode).toBe(false);
    expect(env.ALLOWED_COUNTRIES).toEqual({ countries: ["GB"], regions: { US: ["US-NJ", "US-PA"] } });
    expect(env.ADMIN_ACCESS_KEY).toBe("a-real-admin-key");
  });

  it("marks cookies Secure (the session's __Host-session) in production, unless a demo turns it off", () => {
    expect(parseEnv({ NODE_ENV: "production" }).secureCookies).toBe(true);
    expect(parseEnv({ NODE_ENV: "development" }).secureCookies).toBe(false);
    expect(parseEnv({ NODE_ENV: "test" }).secureCookies).toBe(false);
    expect(parseEnv({ NODE_ENV: "production", SECURE_COOKIES: "false" }).secureCookies).toBe(false);
    const real = { ...REAL, NODE_ENV: "production" };
    expect(parseEnv(real).secureCookies).toBe(true);
    expect(() => parseEnv({ ...real, SECURE_COOKIES: "false" })).toThrow(/^Invalid configuration: SECURE_COOKIES=false is for demos only/);
  });

  it("joins draws to drand's public relays by default with Stripe keys; BEACON_URLS=off is the only way without (issue 34)", () => {
    const real = REAL;
    expect(parseEnv(real)).toMatchObject({ BEACON_URLS: DRAND_RELAYS, beaconOff: false });
    expect(DRAND_RELAYS.every((url) => url.startsWith("https://"))).toBe(true);
    expect(parseEnv({ ...real, BEACON_URLS: "https://relay.example/" })).toMatchObject({ BEACON_URLS: ["https://relay.example"], beaconOff: false });
    expect(parseEnv({ ...real, BEACON_URLS: "off" })).toMatchObject({ BEACON_URLS: undefined, beaconOff: true });
    expect(parseEnv({ BEACON_URLS: " off " })).toMatchObject({ BEACON_URLS: undefined, beaconOff: true });
    // A demo stays offline unless told otherwise.
    expect(parseEnv({})).toMatchObject({ BEACON_URLS: undefined, beaconOff: false });
    expect(() => parseEnv({ ...real, BEACON_URLS: "off,https://relay.example" })).toThrow(
      /^Invalid configuration: BEACON_URLS expected http\(s\) URLs, comma-separated, or "off"/,
    );
  });

  it("shows a clearly demo support address in demo mode, and the configured one otherwise", () => {
    expect(parseEnv({}).SUPPORT_EMAIL).toBe(DEMO_SUPPORT_EMAIL);
    expect(DEMO_SUPPORT_EMAIL).toMatch(/demo/);
    expect(DEMO_SUPPORT_EMAIL).not.toMatch(/example\.com/);
    expect(parseEnv({ SUPPORT_EMAIL: "help@raffle.example" }).SUPPORT_EMAIL).toBe("help@raffle.example");
  });

  it("ends event streams after 15 minutes unless told otherwise", () => {
    expect(parseEnv({}).EVENT_STREAM_MAX_SECONDS).toBe(900);
    expect(parseEnv({ EVENT_STREAM_MAX_SECONDS: "2" }).EVENT_STREAM_MAX_SECONDS).toBe(2);
    expect(() => parseEnv({ EVENT_STREAM_MAX_SECONDS: "0" })).toThrow(/EVENT_STREAM_MAX_SECONDS/);
  });
});
