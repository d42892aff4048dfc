import { createCookie } from "@remix-run/node";
import { getEnv } from "~/infra/env.server";
import { sessionSecret } from "~/infra/session-secret.server";
import { deviceFor, type KnownDevice } from "~/services/accounts/known-device.server";

/** The signed `__device` cookie that carries a known device (services/accounts/known-device). */
export const KNOWN_DEVICE_TTL_SECONDS = 365 * 24 * 60 * 60;

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
  return deviceCookie().serialize(deviceFor(userId, current));
}
