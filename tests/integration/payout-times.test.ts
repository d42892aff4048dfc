import { beforeAll, describe, expect, it } from "vitest";
import { approvePayout, rejectPayout } from "~/services/back-office/admin.server";
import { OTHER_REASON, publishedPayoutTimes } from "~/services/money/payout-times.server";
import { settleTransfer } from "~/services/money/transfers.server";
import { requestWithdrawal } from "~/services/money/withdrawals.server";
import { REJECT_REASONS } from "~/shared/payout-decisions";
import { call } from "../support/app";
import { createTestUser } from "../support/factories";

/** /fair's payout times (issue 34, item 4), from withdrawals made, approved, sent and refused by the services. */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const now = new Date();
let admin: { id: string };

/** A new player's $20 withdrawal to `method`, requested `ago` before now. */
async function withdrawal(method: "venmo" | "paypal", ago: number) {
  const player = await createTestUser({ cash: 5_000n });
  const fields = { username: method === "venmo" ? "payee" : "payee@example.com" };
  const requestedAt = new Date(now.getTime() - ago);
  const { id } = await requestWithdrawal(player.id, { amount: "20.00", method, fields }, requestedAt);
  return { id, requestedAt };
}

/** Requested `ago` before now, sent by hand `took` after the request. */
async function paid(method: "venmo" | "paypal", ago: number, took: number) {
  const { id, requestedAt } = await withdrawal(method, ago);
  expect(await approvePayout(admin.id, id, requestedAt)).toEqual({ status: "processing" });
  expect(await settleTransfer(admin.id, id, { reference: `ref-${id.slice(0, 8)}` }, new Date(requestedAt.getTime() + took))).toEqual({ status: "completed" });
}

async function refused(reason: string, ago: number) {
  const { id, requestedAt } = await withdrawal("venmo", ago);
  await rejectPayout(admin.id, id, reason, requestedAt);
}

beforeAll(async () => {
  admin = await createTestUser({ isAdmin: true });
  for (const took of [1, 2, 3, 10]) await paid("venmo", 5 * DAY, took * HOUR);
  await paid("paypal", 2 * DAY, HOUR / 2);
  // Sent 40 days ago: outside the window.
  await paid("venmo", 41 * DAY, 100 * HOUR);
  // Approved, not sent yet: no time to count.
  const waiting = await withdrawal("venmo", DAY);
  await approvePayout(admin.id, waiting.id, now);
  await refused(REJECT_REASONS[0], 3 * DAY);
  await refused(`${REJECT_REASONS[0]}. The account is in another name`, 2 * DAY);
  await refused(REJECT_REASONS[2], DAY);
  await refused("Player 7 looks like a mule, see ticket 4411", DAY);
  await refused(REJECT_REASONS[1], 45 * DAY);
});

describe("published payout times", () => {
  it("give the median and 95th percentile from request to money sent per method, over 30 days, and refusals per reason", async () => {
    const times = await publishedPayoutTimes(now);
    expect(times.methods).toEqual([
      // percentile_cont over 1, 2, 3 and 10 hours: 2.5 h, and 3 h + 0.85 × 7 h.
      { label: "PayPal", count: 1, medianSeconds: 1_800, p95Seconds: 1_800 },
      { label: "Venmo", count: 4, medianSeconds: 9_000, p95Seconds: Math.round(8.95 * 3_600) },
    ]);
    expect(times.refused).toEqual([
      { reason: REJECT_REASONS[0], count: 2 },
      { reason: REJECT_REASONS[2], count: 1 },
      { reason: OTHER_REASON, count: 1 },
    ]);
  });

  it("are on /fair, with counts only: never an admin's own words", async () => {
    const response = await call("/fair");
    expect(response.status).toBe(200);
    const html = await response.text();
    const section = html.slice(html.indexOf('data-testid="payout-times"'));
    expect(section).toContain("Payout times");
    expect(section).toMatch(/Venmo<\/th><td[^>]*>4<\/td><td[^>]*>2 h 30 min<\/td><td[^>]*>8 h 57 min<\/td>/);
    expect(section).toMatch(/PayPal<\/th><td[^>]*>1<\/td><td[^>]*>30 min<\/td><td[^>]*>30 min<\/td>/);
    expect(section).toContain(`Refused: <!-- -->4`);
    expect(section).toContain(`${REJECT_REASONS[0]}<!-- -->: <!-- -->2`);
    expect(html).not.toContain("mule");
    expect(html).not.toContain("another name");
  });
});
