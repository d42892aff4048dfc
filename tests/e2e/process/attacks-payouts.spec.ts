import { expect, test } from "@playwright/test";
import { runningDatabaseUrl } from "../../support/database-dump";
import { withClient } from "../../support/test-database";
import { DEMO_ADMIN_TOTP_SECRET, grantWinnings, unusedTotpCode, verifyEmailOf } from "../support";
import { signUpOn } from "../../support/server-process";
import { attackTarget, cookiesOf } from "./attack-target";

/**
 * Issue 31's payout attacks, replayed against a production build (`build/server.js`, demo
 * mode, its own embedded database), apart from attacks.spec.ts to keep each file short.
 */

const { target, send, signIn } = attackTarget();

/**
 * Issue 31's payout controls (h-payouts), replayed against the same production build: the
 * full destination only on the transfer step (audited), thresholds that count the player,
 * and approvals racing the player's bonus spending without a 500.
 */
test.describe("issue 31: payouts an admin can send, limits that count the player", () => {
  const databaseUrl = () => runningDatabaseUrl(target.dataDir);

  /** Cash won (not from a card, so it is paid by transfer), given as test data is: in the database. */
  const winnings = async (email: string, coins: number) => grantWinnings(email, coins, await databaseUrl());

  async function player(email: string, { won = 0, bought = 0 } = {}) {
    const cookie = await signUpOn(target.base, email);
    await verifyEmailOf(email, await databaseUrl());
    if (won > 0) await winnings(email, won);
    for (let i = 0; i < bought; i++) {
      const paid = await send("/checkout?package=package_4", {
        method: "POST",
        cookie,
        form: { intent: "demo-pay", cardNumber: "4242 4242 4242 4242", expiry: "12/34", cvc: "123" },
      });
      expect(paid.status).toBe(302);
    }
    return cookie;
  }

  /** The demo admin, past the gate with their authenticator code (once: the gate stays open 30 minutes). */
  let staffCookie: string | undefined;
  const admin = async () => (staffCookie ??= await passGate());
  async function passGate(): Promise<string> {
    const signedIn = await signIn("admin@demo.test", "demo-admin-pass");
    let cookie = cookiesOf(signedIn);
    const code = await unusedTotpCode("admin@demo.test", DEMO_ADMIN_TOTP_SECRET, await databaseUrl());
    const gate = await send("/admin-access", { method: "POST", cookie, form: { intent: "code", code } });
    expect(gate.status).toBe(302);
    cookie = [cookie, cookiesOf(gate)].filter(Boolean).join("; ");
    return cookie;
  }

  const withdraw = (cookie: string, amount: number, method = "venmo", accountInfo = "lucky-lou") =>
    send("/api/withdraw", { method: "POST", cookie, json: { amount, method, accountInfo } });

  test("item 1: a PayPal transfer shows its full address on the transfer step only, each view audited", async () => {
    const cookie = await player("paypal-payee@example.com", { won: 1470 });
    const asked = await withdraw(cookie, 14.7, "paypal", "send-here@wallet.example");
    expect(asked.status).toBe(200);
    const { id } = (await asked.json()) as { id: string };
    const staff = await admin();
    expect((await send(`/api/admin/payouts/${id}/approve`, { method: "POST", cookie: staff, json: {} })).status).toBe(200);
    const listed = await (await send("/api/admin/transfers", { cookie: staff })).text();
    expect(listed).toContain("PayPal ••••le");
    expect(listed).not.toContain("send-here@");
    const step = await send(`/api/admin/payouts/${id}/transfer`, { cookie: staff });
    expect(await step.json()).toMatchObject({ amount: "14.70", destination: [{ label: "PayPal email", value: "send-here@wallet.example" }] });
    const audit = await withClient(await databaseUrl(), (client) =>
      client.query("SELECT count(*)::int AS n FROM audit_events WHERE action = 'payout.destination_view' AND target = $1", [`withdrawal:${id}`]),
    );
    expect(audit.rows[0].n).toBe(1);
    // The player is no admin: no destination for them.
    expect((await send(`/api/admin/payouts/${id}/transfer`, { cookie })).status).toBeGreaterThanOrEqual(401);
    expect(await (await send(`/api/admin/payouts/${id}/transfer`, { method: "POST", cookie: staff, json: { reference: "PP-REF-123456" } })).json()).toEqual({
      status: "completed",
    });
  });

  test("item 2: split withdrawals are counted together: verification and the second approver hold, bulk approval pays none", async () => {
    const cookie = await player("splitter@example.com", { won: 100_000 });
    // As many at once as the withdrawal rate limit lets through, then the rest.
    const answers = [...(await Promise.all(Array.from({ length: 5 }, () => withdraw(cookie, 100))))];
    const bodies = (await Promise.all(answers.filter((a) => a.status === 200).map((a) => a.json()))) as { requiresVerification: boolean }[];
    expect(answers.every((a) => a.status < 500)).toBe(true);
    expect(bodies.length).toBeGreaterThanOrEqual(2);
    expect(bodies.filter((b) => !b.requiresVerification).length).toBeLessThanOrEqual(1);
    const staff = await admin();
    expect((await send("/api/admin/payouts/bulk-approve", { method: "POST", cookie: staff, json: { maxAmount: 100 } })).status).toBe(200);
    // At most the first, which needed neither check ($500 waiting is not above the second-approver amount).
    const mine = (await (await send("/api/withdrawals", { cookie })).json()) as { status: string }[];
    expect(mine.filter((w) => w.status !== "pending").length).toBeLessThanOrEqual(1);

    const halves = await player("halves@example.com", { won: 20_000 });
    expect(((await (await withdraw(halves, 62.48)).json()) as { requiresVerification: boolean }).requiresVerification).toBe(false);
    expect(((await (await withdraw(halves, 62.47)).json()) as { requiresVerification: boolean }).requiresVerification).toBe(true);
  });

  test("item 7: approvals racing the player's bonus spending answer without a 500", async () => {
    const cookie = await player("spender@example.com", { bought: 2 });
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push(((await (await withdraw(cookie, 12.49)).json()) as { id: string }).id);
    // Raffles to spend the bonus on (the scheduler is off here): opened as test data is, with their two pots.
    const raffles = await withClient(await databaseUrl(), async (client) => {
      const { rows } = await client.query<{ id: string }>(
        `INSERT INTO raffles (kind, tier, entry_price, starts_at, ends_at, seed_hash, seed)
         SELECT 'regular', 'micro', 600, now() - interval '1 second', now() + interval '1 hour', md5(random()::text), md5(random()::text)
         FROM generate_series(1, 4) RETURNING id::text AS id`,
      );
      await client.query(
        `INSERT INTO ledger_accounts (kind, raffle_id) SELECT k::"LedgerAccountKind", r FROM unnest($1::uuid[]) r, unnest(ARRAY['raffle_pot', 'raffle_pot_bonus']) k`,
        [rows.map((r) => r.id)],
      );
      return rows;
    });
    const staff = await admin();
    const answers = await Promise.all([
      ...ids.map((id) => send(`/api/admin/payouts/${id}/approve`, { method: "POST", cookie: staff, json: {} })),
      ...raffles.flatMap((r) => [1, 2].map(() => send(`/api/raffles/${r.id}/enter`, { method: "POST", cookie, json: {} }))),
    ]);
    expect(answers.map((a) => a.status).filter((s) => s >= 500)).toEqual([]);
    // The entries went through (the race was run), and every approval has its outcome.
    expect(answers.slice(ids.length).some((a) => a.status === 200)).toBe(true);
  });
});
