import { randomBytes } from "node:crypto";

/**
 * A known device (OWASP's "slow down online guessing attacks with device cookies"):
 * a browser where an account signed in with its password is given a random device id for
 * that account. Sign-ins from it are limited per device, not per account, so an attacker who
 * guesses at the account (and locks it for every other browser) cannot lock out its owner's
 * own browsers. The cookie that carries it is app/web/known-device.server.ts.
 */
export type KnownDevice = { userId: string; deviceId: string };

/** The device this browser is known as to the user: its id kept if it already was theirs. */
export function deviceFor(userId: string, current: KnownDevice | undefined): KnownDevice {
  return { userId, deviceId: current?.userId === userId ? current.deviceId : randomBytes(16).toString("base64url") };
}
