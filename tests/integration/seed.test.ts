import { describe, expect, it } from "vitest";
import { db } from "~/models/db.server";
import { listRaffleSeries } from "~/models/raffles/raffle-schedule.server";
import { getUserByEmail } from "~/models/accounts/user.server";
import { verifyPassword } from "~/services/accounts/password.server";
import { DEMO_USERS, seed } from "../../server/seed";

describe("seed", () => {
  it("adds the schedule, and demo users only when asked", async () => {
    expect(await seed({ demoUsers: false })).toEqual({ series: 16, demoUsers: 0 });
    expect(await db().user.count()).toBe(0);
    const series = await listRaffleSeries();
    expect(new Set(series.filter((s) => s.kind === "quick").map((s) => s.tier))).toEqual(new Set(["lightning", "bolt", "flash", "sonic", "hyper", "ultra"]));
    expect(new Set(series.filter((s) => s.kind === "regular").map((s) => s.tier))).toEqual(new Set(["micro", "low", "medium", "high", "premium", "elite"]));
    for (const s of series) {
      expect(s.entryPrice).toBeGreaterThanOrEqual(5n);
      expect(s.entryPrice).toBeLessThanOrEqual(2500n);
    }
    expect(series.filter((s) => s.kind === "quick").every((s) => s.durationSeconds === 30)).toBe(true);
  });

  it("is idempotent and leaves rows an operator changed alone", async () => {
    await seed({ demoUsers: true });
    await db().raffleSchedule.update({ where: { slug: "micro-5c-3m" }, data: { enabled: false } });
    expect(await seed({ demoUsers: true })).toEqual({ series: 0, demoUsers: 0 });
    expect((await db().raffleSchedule.findUniqueOrThrow({ where: { slug: "micro-5c-3m" } })).enabled).toBe(false);
  });

  it("creates the demo player and admin with the README's credentials", async () => {
    await seed({ demoUsers: true });
    for (const demo of DEMO_USERS) {
      const user = await getUserByEmail(demo.email.toUpperCase());
      expect(user?.isAdmin).toBe(demo.isAdmin);
      const { passwordHash } = await db().user.findUniqueOrThrow({ where: { email: demo.email } });
      expect(await verifyPassword(demo.password, passwordHash!)).toBe(true);
      expect(await verifyPassword("wrong password", passwordHash!)).toBe(false);
    }
  });
});
