import { generate, generateSecret } from "otplib";
import { seedDemoFactor } from "~/services/accounts/second-factor.server";

/** The code an authenticator app shows for `secret` at `at` (otplib, as the server checks it). */
export function totpCode(secret: string, at = new Date()): Promise<string> {
  return generate({ secret, epoch: Math.floor(at.getTime() / 1000) });
}

/** The code of the time step `steps` away from now's (±1 is within the server's window). */
export function totpCodeAt(secret: string, steps: number, now = new Date()): Promise<string> {
  return totpCode(secret, new Date(now.getTime() + steps * 30_000));
}

/** Gives the user a confirmed TOTP factor with a fresh secret (test data, as the demo admin's is seeded). */
export async function withTotpFactor(userId: string): Promise<string> {
  const secret = generateSecret();
  await seedDemoFactor(userId, secret);
  return secret;
}
