import { readFileSync } from "node:fs";
import { markDemoPlayerVerified } from "~/models/accounts/identity-check.server";
import path from "node:path";
import { z } from "zod";
import { addMissingRaffleSeries } from "~/models/raffles/raffle-schedule.server";
import { createUserIfAbsent, getUserByEmail } from "~/models/accounts/user.server";
import { hashPassword } from "~/services/accounts/password.server";
import { grantDemoWelcome } from "~/services/rewards/rewards.server";
import { seedDemoFactor } from "~/services/accounts/second-factor.server";
import { usernameKey } from "~/shared/username";

const scheduleFile = z.object({
  series: z.array(
    z.object({
      slug: z.string().regex(/^[a-z0-9-]+$/),
      kind: z.enum(["regular", "quick"]),
      tier: z.string().min(1),
      entryPrice: z.number().int().min(5).max(2500).transform(BigInt),
      durationSeconds: z.number().int().positive(),
      concurrent: z.number().int().positive().optional(),
      vipOnly: z.boolean().optional(),
      maxTicketsPerPlayer: z.number().int().positive().optional(),
    }),
  ),
});

export const SCHEDULE_FILE = path.resolve("prisma/schedule.json");

/** The demo accounts, created only in demo mode; the README prints the same credentials. */
export const DEMO_USERS = [
  { email: "player@demo.test", password: "demo-player-pass", username: "DemoPlayer", isAdmin: false },
  { email: "admin@demo.test", password: "demo-admin-pass", username: "DemoAdmin", isAdmin: true },
] as const;

/**
 * The demo admin's TOTP secret: the README prints it, so a person trying the site
 * can reach the back office with an authenticator app or the one-liner there. Demo mode only.
 */
export const DEMO_ADMIN_TOTP_SECRET = "RAFFLERUSHDEMOADMIN2FACTORSECRET";

export type SeedResult = { series: number; demoUsers: number };

/** Idempotent: adds what is missing and never overwrites what exists. */
export async function seed({ demoUsers }: { demoUsers: boolean }): Promise<SeedResult> {
  const { series } = scheduleFile.parse(JSON.parse(readFileSync(SCHEDULE_FILE, "utf8")));
  const addedSeries = await addMissingRaffleSeries(series);
  let addedUsers = 0;
  if (demoUsers) {
    for (const user of DEMO_USERS) {
      const created = await createUserIfAbsent({
        email: user.email,
        passwordHash: await hashPassword(user.password),
        dateOfBirth: new Date("1990-01-01"),
        country: "GB",
        username: user.username,
        usernameKey: usernameKey(user.username),
        isAdmin: user.isAdmin,
      });
      if (created) {
        addedUsers += 1;
        const { id } = (await getUserByEmail(user.email))!;
        await grantDemoWelcome(id, user.email);
      }
      // The demo player can deposit and play at once in GB (ADR 080); also for a database seeded before.
      if (!user.isAdmin) await markDemoPlayerVerified(user.email);
      // Also for a demo database seeded before second factors existed.
      if (user.isAdmin) await seedDemoFactor((await getUserByEmail(user.email))!.id, DEMO_ADMIN_TOTP_SECRET);
    }
  }
  return { series: addedSeries, demoUsers: addedUsers };
}
