import { describe, expect, it } from "vitest";
import { db } from "~/models/db.server";
import { drawDueRaffles, enterRaffle } from "~/services/raffles/raffles.server";
import { spinWheel } from "~/services/rewards/rewards.server";
import { houseAccountId, postTransaction, userAccountId } from "~/models/money/ledger.server";
import { HISTORY_PAGE_ROWS } from "~/services/money/history.server";
import { call, pageText, sessionCookie } from "../support/app";
import { createTestRaffle, createTestUser } from "../support/factories";

describe("the player's history", () => {
  it("matches the ledger, filters by type, and exports the same rows as CSV", async () => {
    const player = await createTestUser({ coins: 1000n });
    const other = await createTestUser({ coins: 1000n });
    const raffle = await createTestRaffle({ entryPrice: 25n });
    await enterRaffle({ userId: player.id, raffleId: raffle.id, tickets: 2 });
    await enterRaffle({ userId: other.id, raffleId: raffle.id });
    await spinWheel(player.id);
    await drawDueRaffles(new Date(raffle.endsAt.getTime() + 1));
    const cookie = await sessionCookie(player.id);

    const page = await pageText(await call("/history", { cookie }));
    // One row per transaction: its postings to the player's cash and bonus accounts together,
    // shown as coins (never as dollars: coins are not money, except cash coins).
    const postings = await db().ledgerPosting.findMany({
      where: { account: { userId: player.id, kind: { in: ["user", "user_bonus"] } } },
      select: { transactionId: true, amount: true, account: { select: { kind: true } } },
    });
    const byTransaction = new Map<string, { amount: bigint; cash: bigint; bonus: bigint }>();
    for (const p of postings) {
      const row = byTransaction.get(p.transactionId) ?? { amount: 0n, cash: 0n, bonus: 0n };
      row.amount += p.amount;
      if (p.account.kind === "user") row.cash += p.amount;
      else row.bonus += p.amount;
      byTransaction.set(p.transactionId, row);
    }
    const ledger = [...byTransaction.values()];
    const signed = (coins: bigint) => (coins < 0n ? `−${(-coins).toLocaleString("en-US")}` : `+${coins.toLocaleString("en-US")}`);
    for (const row of ledger) {
      const text = [row.cash ? `${signed(row.cash)} cash` : "", row.bonus ? `${signed(row.bonus)} bonus` : ""].filter(Boolean).join(" · ");
      expect(page).toContain(`${text} coins`);
    }
    expect(page).not.toMatch(/[+−]\$/);

    const entries = await pageText(await call("/history?type=entries", { cookie }));
    expect(entries).toContain("Raffle entry");
    expect(entries).not.toContain("Daily spin");

    const csv = await call("/history.csv", { cookie });
    expect(csv.headers.get("Content-Type")).toMatch(/^text\/csv/);
    const lines = (await csv.text()).trim().split("\n");
    expect(lines[0]).toBe("date,type,charged_usd,refunded_or_disputed_usd,coins,cash_coins,bonus_coins,withdrawal,raffle");
    expect(lines).toHaveLength(ledger.length + 1);
    const coins = lines.slice(1).map((line) => BigInt(line.split(",")[4]!));
    expect(coins.reduce((a, b) => a + b, 0n)).toBe(ledger.reduce((a, p) => a + p.amount, 0n));
    expect(lines.some((l) => l.includes(raffle.id))).toBe(true);
  });

  it("refuses dates that are not real days with a 400 and a clear message, page and CSV", async () => {
    const player = await createTestUser({ coins: 100n });
    const cookie = await sessionCookie(player.id);
    for (const query of ["from=9999-99-99", "from=0000-01-01", "to=1990-02-30", "from=-000001-01-01", "to=%2B275760-09-13"]) {
      const page = await call(`/history?${query}`, { cookie });
      expect(page.status, query).toBe(400);
      expect(await pageText(page), query).toMatch(/(From|To) must be a real date between 1900 and 9999, like 2026-01-31/);
      const csv = await call(`/history.csv?${query}`, { cookie });
      expect(csv.status, query).toBe(400);
      expect(((await csv.json()) as { message: string }).message, query).toMatch(/^(From|To) must be a real date between 1900 and 9999, like 2026-01-31$/);
    }
    // The widest real range is fine, and an empty field means the default period.
    expect((await call("/history?from=1900-01-01&to=9999-12-31", { cookie })).status).toBe(200);
    expect((await call("/history.csv?from=&to=", { cookie })).status).toBe(200);
  });

  it("shows a page of the newest rows, and the older ones page by page to the first, each once", async () => {
    const player = await createTestUser();
    // 230 movements in one transaction, so at the same time: pages go on by id after their last row.
    await db().$transaction(async (tx) => {
      const [promotions, bonus] = [await houseAccountId("promotions", tx), await userAccountId(tx, player.id, "user_bonus")];
      for (let i = 0; i < 230; i++) {
        await postTransaction(tx, {
          kind: "bonus",
          reference: `test-history-page:${player.id}:${i}`,
          userId: player.id,
          postings: [
            { accountId: promotions, amount: -BigInt(i + 1) },
            { accountId: bonus, amount: BigInt(i + 1) },
          ],
        });
      }
    });
    const cookie = await sessionCookie(player.id);
    const seen: string[] = [];
    let next: string | null = "/history";
    const pages: number[] = [];
    let last = next;
    while (next) {
      last = next;
      const response: Response = await call(next, { cookie });
      expect(response.status).toBe(200);
      const html = await response.text();
      const rows = [...html.matchAll(/data-testid="history-coins"[^>]*>([^<]*)</g)].map((m) => m[1]!);
      pages.push(rows.length);
      seen.push(...rows);
      next =
        /data-testid="history-older"[^>]*href="([^"]+)"|href="([^"]+)"[^>]*data-testid="history-older"/
          .exec(html)
          ?.slice(1)
          .find(Boolean)
          ?.replace(/&amp;/g, "&") ?? null;
    }
    expect(pages).toEqual([HISTORY_PAGE_ROWS, HISTORY_PAGE_ROWS, 30]);
    // The last page says it is an older one, and links back to the newest.
    const lastPage = await pageText(await call(last, { cookie }));
    expect(lastPage).toMatch(/Older movements, from \d{4}-\d{2}-\d{2} \d{2}:\d{2} \(UTC\) back\./);
    expect(lastPage).toContain("Newest movements");
    // Every movement once, newest first: the amounts 1..230 each once.
    expect(new Set(seen).size).toBe(230);
    // The CSV holds the whole period.
    expect((await (await call("/history.csv", { cookie })).text()).trim().split("\n")).toHaveLength(231);
    // A page that no page could have linked to: the newest, and why, as a 400.
    // (A year PostgreSQL has not: the same answer, not a failed query.)
    for (const before of ["yesterday", `0000-01-01T00:00:00.000Z_${player.id}`]) {
      const forged = await call(`/history?before=${encodeURIComponent(before)}`, { cookie });
      expect(forged.status, before).toBe(400);
      expect(await pageText(forged), before).toContain("That page of older movements does not exist");
    }
  });

  it("shows the published odds", async () => {
    const page = await pageText(await call("/rules"));
    expect(page).toContain("expected value 11.75 coins per spin");
    expect(page).toContain("50.00%");
  });
});
