import { describe, expect, it } from "vitest";
import { db } from "~/models/db.server";
import { userBalance, userBalances } from "~/models/money/ledger.server";
import { requestWithdrawal, WithdrawalRefused } from "~/services/money/withdrawals.server";
import { call, cookiesFrom, sessionCookie } from "../support/app";
import { createTestUser } from "../support/factories";
import { findCardData } from "../support/card-scan";

const CARD = "4242424242424242";

/** A player with `cash` withdrawable coins (as if paid by card) and `bonus` coins. */
async function player(cash: bigint, bonus = 0n) {
  const user = await createTestUser({ cash, coins: bonus, identityVerified: false });
  return { ...user, cookie: await sessionCookie(user.id) };
}

async function dumpAllTables(): Promise<string> {
  const tables = await db().$queryRaw<{ tablename: string }[]>`SELECT tablename FROM pg_tables WHERE schemaname = 'public'`;
  const dumps: string[] = [];
  for (const { tablename } of tables) {
    const rows = await db().$queryRawUnsafe<{ row: unknown }[]>(`SELECT row_to_json(t)::text AS row FROM "${tablename}" t`);
    dumps.push(...rows.map((r) => String(r.row)));
  }
  return dumps.join("\n");
}

describe("withdrawals", () => {
  it("checks the spec's rules in order, on the server, with its messages", async () => {
    const p = await player(2000n);
    const cases: [Record<string, unknown>, string, string][] = [
      [{ amount: 9.99, method: "", accountInfo: "" }, "Minimum Withdrawal", "Minimum withdrawal amount is $10"],
      [
        { amount: 20.01, method: "", accountInfo: "" },
        "Insufficient Balance",
        "Only cash can be withdrawn: you can withdraw up to $20.00. Bonus coins are for play only.",
      ],
      [{ amount: 10, method: "", accountInfo: "" }, "Missing Information", "Please fill in all required fields"],
      [{ amount: 10, method: "bank", accountInfo: "Routing: 011000015" }, "Missing Information", "Please fill in all required fields"],
    ];
    for (const [body, title, message] of cases) {
      const response = await call("/api/withdraw", { method: "POST", cookie: p.cookie, json: body });
      expect(response.status).toBe(422);
      expect(await response.json()).toEqual({ title, message });
    }
    for (const bad of [{ amount: "1e9", method: "venmo", accountInfo: "x" }, { amount: [], method: "venmo" }, "not json"]) {
      const response = await call("/api/withdraw", { method: "POST", cookie: p.cookie, json: bad });
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(response.status).toBeLessThan(500);
    }
    expect(await userBalance(p.id)).toBe(2000n);
  });

  it("refuses card data in the PayPal and Venmo fields: 422, nothing held or stored (issue 19)", async () => {
    const p = await player(5000n);
    const lastFours = (text: string) => text.match(/(?<![0-9a-f.])4444(?![0-9a-f])/g)?.length ?? 0;
    const dumpBefore = await dumpAllTables();
    const lastFoursBefore = lastFours(dumpBefore);
    const card = "5555555555554444";
    const attempts: [string, string][] = [
      ["venmo", `Card: ${card} | Exp: 11/29 | CVV: 654`],
      ["paypal", `Card: ${card} | Exp: 11/29 | CVV: 654`],
      ["venmo", "5555 5555 5555 4444"],
      ["venmo", "5555-5555-5555-4444"],
      ["paypal", `${card}@example.com`],
      ["paypal", "me@example.com CVV: 654"],
      ["venmo", "cvc=6541"],
      ["venmo", "@x5555.5555.5555.4444"],
    ];
    for (const [method, accountInfo] of attempts) {
      // Withdrawal requests are rate limited per player; each attempt here is its own case.
      await db().rateLimitBucket.deleteMany();
      const response = await call("/api/withdraw", { method: "POST", cookie: p.cookie, json: { amount: 10, method, accountInfo } });
      const label = `${method} ${accountInfo}`;
      expect(response.status, label).toBe(422);
      const answer = await response.text();
      expect(JSON.parse(answer), label).toEqual({
        title: "Card Details Not Accepted",
        message: "Never enter a card number or security code here. To be paid to a card, choose Debit card (no security code needed).",
      });
      expect(answer, label).not.toMatch(/5555|4444|654/);
    }
    expect(await userBalance(p.id)).toBe(5000n);
    expect(await db().withdrawal.count({ where: { userId: p.id } })).toBe(0);
    const dump = await dumpAllTables();
    // The card's last four stored alone (a "••••4444" mask) is refused too; inside a hex
    // string (a checksum, an id) the same digits are chance, not card data. Other files share
    // this database (a demo credit card ends 4444), so only what these attempts added counts.
    expect(lastFours(dump)).toBe(lastFoursBefore);
    expect(findCardData(dump, { cvvs: ["654", "6541"] })).toEqual(findCardData(dumpBefore, { cvvs: ["654", "6541"] }));
  });

  it("takes an email address for PayPal and a Venmo username for Venmo, and nothing else", async () => {
    const p = await player(5000n);
    const refusals: [string, string, string][] = [
      ["paypal", "lucky-lou", "Enter the email address of your PayPal account"],
      ["paypal", "me@localhost", "Enter the email address of your PayPal account"],
      ["paypal", "Routing: 021000021 | Account: 000123456789", "Enter the email address of your PayPal account"],
      ["venmo", "me@example.com", "Enter your Venmo username: 5 to 30 letters, digits, hyphens or underscores"],
      ["venmo", "abc", "Enter your Venmo username: 5 to 30 letters, digits, hyphens or underscores"],
      ["venmo", "lucky lou", "Enter your Venmo username: 5 to 30 letters, digits, hyphens or underscores"],
    ];
    for (const [method, accountInfo, message] of refusals) {
      await db().rateLimitBucket.deleteMany();
      const response = await call("/api/withdraw", { method: "POST", cookie: p.cookie, json: { amount: 10, method, accountInfo } });
      expect(response.status, accountInfo).toBe(422);
      expect(((await response.json()) as { message: string }).message, accountInfo).toBe(message);
    }
    expect(await db().withdrawal.count({ where: { userId: p.id } })).toBe(0);
    for (const [method, accountInfo] of [
      ["paypal", "me@example.com"],
      ["venmo", "@Lucky_Lou-7"],
    ]) {
      await db().rateLimitBucket.deleteMany();
      const response = await call("/api/withdraw", { method: "POST", cookie: p.cookie, json: { amount: 10, method, accountInfo } });
      expect(response.status, accountInfo).toBe(200);
    }
    expect(await userBalance(p.id)).toBe(3000n);
    const list = (await (await call("/api/withdrawals", { cookie: p.cookie })).json()) as { destination: string }[];
    expect(list.map((w) => w.destination).sort()).toEqual(["PayPal ••••om", "Venmo ••••-7"]);
  });

  it("refuses an amount with more than two decimals instead of rounding it", async () => {
    const p = await player(5000n);
    for (const amount of [10.005, "10.005", 12.999, "12.345", 10.001, ".125"]) {
      await db().rateLimitBucket.deleteMany();
      const response = await call("/api/withdraw", { method: "POST", cookie: p.cookie, json: { amount, method: "venmo", accountInfo: "lucky-lou" } });
      expect(response.status, String(amount)).toBe(422);
      expect(await response.json(), String(amount)).toEqual({
        title: "Invalid Amount",
        message: "Enter the amount in dollars and cents, with at most two decimals",
      });
    }
    const form = await call("/withdraw", { method: "POST", cookie: p.cookie, form: { amount: "10.005", method: "venmo", "venmo.username": "lucky-lou" } });
    expect(form.status).toBeLessThan(500);
    expect(await userBalance(p.id)).toBe(5000n);
    expect(await db().withdrawal.count({ where: { userId: p.id } })).toBe(0);
  });

  it("holds the amount at once and lists the request as pending", async () => {
    const p = await player(5000n);
    const response = await call("/api/withdraw", { method: "POST", cookie: p.cookie, json: { amount: 12.5, method: "venmo", accountInfo: "lucky-lou" } });
    expect(await response.json()).toMatchObject({ success: true, amount: "12.50", requiresVerification: false });
    expect(await userBalance(p.id)).toBe(3750n);
    const hold = await db().ledgerAccount.findUniqueOrThrow({ where: { userId_kind: { userId: p.id, kind: "withdrawal_hold" } } });
    expect(hold.balance).toBe(1250n);
    const list = (await (await call("/api/withdrawals", { cookie: p.cookie })).json()) as Record<string, unknown>[];
    expect(list).toEqual([expect.objectContaining({ amount: "12.50", method: "venmo", status: "pending", destination: "Venmo ••••ou" })]);
  });

  it("50 concurrent requests over a balance that covers 3: exactly 3 held", async () => {
    const p = await createTestUser({ cash: 3000n });
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, () => requestWithdrawal(p.id, { amount: "10", method: "paypal", fields: { username: "me@example.com" } })),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(3);
    for (const r of results) if (r.status === "rejected") expect(r.reason).toBeInstanceOf(WithdrawalRefused);
    expect(await userBalance(p.id)).toBe(0n);
    expect(await db().withdrawal.count({ where: { userId: p.id } })).toBe(3);
  });

  it("withdraws only cash: bonus coins stay for play, with the withdrawable amount in the message", async () => {
    const p = await player(1500n, 5000n);
    const refused = await call("/api/withdraw", { method: "POST", cookie: p.cookie, json: { amount: 15.01, method: "venmo", accountInfo: "lucky-lou" } });
    expect(refused.status).toBe(422);
    expect(await refused.json()).toEqual({
      title: "Insufficient Balance",
      message: "Only cash can be withdrawn: you can withdraw up to $15.00. Bonus coins are for play only.",
    });
    const onlyBonus = await player(0n, 100_000n);
    const none = await call("/api/withdraw", { method: "POST", cookie: onlyBonus.cookie, json: { amount: 10, method: "venmo", accountInfo: "lucky-lou" } });
    expect(await none.json()).toMatchObject({ message: "Only cash can be withdrawn: you can withdraw up to $0.00. Bonus coins are for play only." });
    expect(await userBalances(onlyBonus.id)).toEqual({ cash: 0n, bonus: 100_000n });

    const ok = await call("/api/withdraw", { method: "POST", cookie: p.cookie, json: { amount: 15, method: "venmo", accountInfo: "lucky-lou" } });
    expect(ok.status).toBe(200);
    expect(await userBalances(p.id)).toEqual({ cash: 0n, bonus: 5000n });
    const me = (await (await call("/api/auth/user", { cookie: p.cookie })).json()) as Record<string, unknown>;
    expect(me).toMatchObject({ coinBalance: 5000, cashBalance: 0, bonusBalance: 5000 });
  });

  it("marks requests above $100 for identity verification", async () => {
    const p = await player(20_000n);
    const response = await call("/api/withdraw", { method: "POST", cookie: p.cookie, json: { amount: 100.01, method: "venmo", accountInfo: "big-winner" } });
    expect(await response.json()).toMatchObject({ requiresVerification: true });
  });

  it("never stores a CVV or a full card number, and encrypts bank details", async () => {
    const p = await player(10_000n);
    const card = await call("/api/withdraw", {
      method: "POST",
      cookie: p.cookie,
      json: { amount: 10, method: "debit_card", accountInfo: `Card: ${CARD} | Exp: 12/29 | CVV: 7319` },
    });
    const cardBody = await card.text();
    expect(card.status).toBe(200);
    expect(cardBody).not.toContain(CARD);
    expect(cardBody).not.toContain("7319");
    await call("/api/withdraw", {
      method: "POST",
      cookie: p.cookie,
      json: { amount: 10, method: "bank", accountInfo: "Routing: 011000015 | Account: 98765432101" },
    });
    const stored = await db().withdrawal.findMany({ where: { userId: p.id }, orderBy: { createdAt: "asc" } });
    expect(stored[0]).toMatchObject({ method: "debit_card", cardLast4: "4242", cardExpiry: "12/29", destinationMasked: "Card ••••4242 (12/29)" });
    expect(stored[0]!.cardToken).toMatch(/^demo_card_/);
    expect(stored[1]!.destinationMasked).toBe("Bank ••••2101");
    const dump = await dumpAllTables();
    expect(dump).not.toContain(CARD);
    // The CVV as a value of its own: "7319" inside a random id or hash is not one.
    expect(findCardData(dump, { cvvs: ["7319"] })).toEqual([]);
    expect(dump).not.toContain("98765432101");
    expect(dump).not.toContain("011000015");
  });

  it("works as a plain form post: the spec's toast, or the page again with the reason", async () => {
    const p = await player(3000n);
    const response = await call("/withdraw", {
      method: "POST",
      cookie: p.cookie,
      form: { amount: "15", method: "bank", "bank.routingNumber": "011000015", "bank.accountNumber": "12345678", "debit_card.cvv": "123" },
    });
    expect(response.headers.get("Location")).toBe("/withdraw");
    const page = await (await call("/withdraw", { cookie: `${p.cookie}; ${cookiesFrom(response)}` })).text();
    expect(page).toContain("Withdrawal Requested");
    expect(page).toContain("Your withdrawal has been submitted and will be processed within 24 hours.");
    expect(page).toContain("Bank ••••5678");
    // Refused: the page again, the reason beside the amount and what was typed kept, but the secrets (issue 33).
    const refused = await call("/withdraw", {
      method: "POST",
      cookie: p.cookie,
      form: { amount: "5", method: "bank", "bank.routingNumber": "011000015", "bank.accountNumber": "12345678" },
    });
    expect(refused.status).toBe(422);
    const refusedPage = await refused.text();
    expect(refusedPage).toContain("Minimum Withdrawal: Minimum withdrawal amount is $10");
    expect(refusedPage).toContain('value="011000015"');
    expect(refusedPage).not.toContain("12345678");
    expect(refusedPage).toContain("For your security this is not kept: enter it again.");
    // The page's fetcher asks for anything and gets the same answer, never JSON.
    const fetched = await call("/withdraw", {
      method: "POST",
      cookie: p.cookie,
      form: { amount: "5", method: "venmo" },
      headers: { Accept: "application/json" },
    });
    expect(fetched.status).toBe(422);
    expect(fetched.headers.get("Content-Type")).toMatch(/^text\/html/);
  });

  it("refuses a form it cannot read as one request (a field sent twice) with a 400, holding nothing", async () => {
    const p = await player(3000n);
    const body = "amount=15&amount=25&method=venmo&venmo.username=lucky-lou";
    const response = await call("/withdraw", { method: "POST", cookie: p.cookie, body, headers: { "Content-Type": "application/x-www-form-urlencoded" } });
    expect(response.status).toBe(400);
    const page = await response.text();
    expect(page).toContain("Withdrawal Failed");
    expect(page).toContain("The form could not be read");
    expect(await userBalance(p.id)).toBe(3000n);
    expect(await db().withdrawal.count({ where: { userId: p.id } })).toBe(0);
  });
});
