import { describe, expect, it } from "vitest";
import { db } from "~/models/db.server";
import { userBalances } from "~/models/money/ledger.server";
import { closeAccount } from "~/services/accounts/account-closure.server";
import { depositLimits, excludeSelf } from "~/services/play-safety/responsible-play.server";
import { DEMO_WELCOME_COINS } from "~/services/rewards/rewards.server";
import { call, pageText } from "../support/app";
import { formAlerts } from "../support/field-error";

/**
 * Issue 31, item 3 (PRODUCT.md "A self-exclusion outlives the account"; ADR 053): closing
 * the account keeps, for the person, a running exclusion, the deposit limits and a break;
 * a sign-up that matches is refused while the exclusion runs and otherwise gets them back;
 * welcome coins are given once per person.
 */
const PASSWORD = "a-long-unusual-passphrase";
let signUps = 0;
/** Each sign-up from its own address, so the per-address sign-up limit stays out of the way. */
function signUp(email: string, fields: Record<string, string> = {}) {
  signUps += 1;
  const form = { intent: "signup", email, password: PASSWORD, dateOfBirth: "1990-05-17", country: "GB", acceptTerms: "on", ...fields };
  return call("/api/login", { method: "POST", form, ip: `10.31.${Math.floor(signUps / 250)}.${signUps % 250}` });
}
const userWith = (email: string) =>
  db().user.findUnique({ where: { email: email.toLowerCase() }, select: { id: true, excludedUntil: true, exclusionKind: true } });
const dayLimit = async (userId: string) => (await depositLimits(userId)).find((l) => l.period === "day")?.limitCents ?? null;

/** Signs up with a $5 daily limit, then runs `before` on the account and closes it. */
async function closedPerson(email: string, before: (userId: string) => Promise<unknown> = async () => {}) {
  expect((await signUp(email, { limitDay: "5" })).status).toBe(302);
  const { id } = (await userWith(email))!;
  await before(id);
  await closeAccount(id, { password: PASSWORD });
  expect(await userWith(email)).toBeNull();
  return id;
}

describe("a self-exclusion outlives the account", () => {
  it("refuses a sign-up with the same email while it runs, creating nothing, however the address is written", async () => {
    const email = `excluded-${Date.now()}@example.com`;
    await closedPerson(email, (id) => excludeSelf(id, "5y"));
    const users = await db().user.count();

    const refused = await signUp(email.toUpperCase());
    expect(refused.status).toBe(403);
    expect(formAlerts(await pageText(refused)).join(" ")).toMatch(
      /You excluded yourself from play until \d{4}-\d{2}-\d{2}.*a new one cannot be opened until then/,
    );
    // The same mailbox with a +tag is the same person.
    expect((await signUp(email.replace("@", "+again@"))).status).toBe(403);
    // Many at once: every one refused.
    const parallel = await Promise.all(Array.from({ length: 10 }, () => signUp(email)));
    expect(parallel.map((r) => r.status)).toEqual(Array(10).fill(403));
    expect(await db().user.count()).toBe(users);
  });

  it("keeps only a keyed hash of the email", async () => {
    const email = `hashed-${Date.now()}@example.com`;
    await closedPerson(email, (id) => excludeSelf(id, "1y"));
    const rows = await db().$queryRaw<{ text: string }[]>`SELECT row_to_json(c)::text AS text FROM person_controls c`;
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row.text).not.toMatch(/@|hashed-/);
    expect(rows.some((r) => /"person_key":"email:[0-9a-f]{64}"/.test(r.text))).toBe(true);
  });

  it("gives the old limits back once the exclusion has ended, and no second welcome", async () => {
    const email = `returning-${Date.now()}@example.com`;
    const first = await closedPerson(email, async (id) => {
      // An exclusion taken 200 days ago for six months: over.
      await excludeSelf(id, "6m", new Date(Date.now() - 200 * 86_400_000));
    });
    expect((await db().ledgerTransaction.findMany({ where: { userId: first, reference: { startsWith: "demo-welcome:" } } })).length).toBe(1);

    const again = await signUp(email, { limitDay: "50" });
    expect(again.status).toBe(302);
    const user = (await userWith(email))!;
    expect(user.excludedUntil).toBeNull();
    // The $5 limit is back; the $50 asked for at sign-up is an increase, which waits 24 hours.
    expect(await dayLimit(user.id)).toBe(500);
    expect((await depositLimits(user.id)).find((l) => l.period === "day")?.pending).toMatchObject({ amountCents: 5000 });
    expect(await userBalances(user.id)).toEqual({ cash: 0n, bonus: 0n });
    expect(DEMO_WELCOME_COINS).toBeGreaterThan(0n);
  });

  it("gives a break in force back to the new account", async () => {
    const email = `on-a-break-${Date.now()}@example.com`;
    await closedPerson(email, (id) => excludeSelf(id, "7d"));
    expect((await signUp(email)).status).toBe(302);
    const user = (await userWith(email))!;
    expect(user.exclusionKind).toBe("break");
    expect(user.excludedUntil!.getTime()).toBeGreaterThan(Date.now() + 6 * 86_400_000);
    expect(await dayLimit(user.id)).toBe(500);
  });

  it("makes one account of parallel re-sign-ups, with the limits and without welcome coins", async () => {
    const email = `parallel-${Date.now()}@example.com`;
    await closedPerson(email);
    const answers = await Promise.all(Array.from({ length: 10 }, () => signUp(email)));
    expect(answers.map((r) => r.status).sort()).toEqual([302, ...Array(9).fill(409)]);
    const user = (await userWith(email))!;
    expect(await dayLimit(user.id)).toBe(500);
    expect(await userBalances(user.id)).toEqual({ cash: 0n, bonus: 0n });
  });
});
