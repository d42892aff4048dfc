import { randomBytes } from "node:crypto";
import { createCookie } from "@remix-run/node";
import { getEnv } from "~/infra/env.server";
import { sessionSecret } from "~/infra/session-secret.server";

/**
 * A device cookie (OWASP's "slow down online guessing attacks with device cookies",
 * ADR 018): a browser where an account signed in with its password gets a signed cookie
 * naming that account and a random device id. Sign-ins that carry it are limited per
 * device, not per account, so an attacker who guesses at the account (and locks it for
 * every other browser) cannot lock out its owner's own browsers.
 */
export const KNOWN_DEVICE_TTL_SECONDS = 365 * 24 * 60 * 60;

export type KnownDevice = { userId: string; deviceId: string };

let cookie: ReturnType<typeof createCookie> | undefined;
function deviceCookie() {
  cookie ??= createCookie("__device", {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    secure: getEnv().secureCookies,
    secrets: [sessionSecret()],
    maxAge: KNOWN_DEVICE_TTL_SECONDS,
  });
  return cookie;
}

/** The device cookie the request carries, when its signature holds. */
export async function knownDevice(request: Request): Promise<KnownDevice | undefined> {
  const value: unknown = await deviceCookie().parse(request.headers.get("Cookie"));
  if (typeof value !== "object" || value === null) return undefined;
  const { userId, deviceId } = value as Record<string, unknown>;
  return typeof userId === "string" && typeof deviceId === "string" && /^[\w-]{22}$/.test(deviceId) ? { userId, deviceId } : undefined;
}

/** The Set-Cookie value that marks this browser as known to the user (keeping its id if it already was). */
export async function rememberDevice(userId: string, current: KnownDevice | undefined): Promise<string> {
  const deviceId = current?.userId === userId ? current.deviceId : randomBytes(16).toString("base64url");
  return deviceCookie().serialize({ userId, deviceId } satisfies KnownDevice);
}
