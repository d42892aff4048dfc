import { expect, test } from "@playwright/test";
import { runningDatabaseUrl } from "../../support/database-dump";
import { newDataDir, removeDataDirs, signUpOn, startServer, stopServer, waitUntilReady, type ServerProcess } from "../../support/server-process";
import { withClient } from "../../support/test-database";
import { DEMO_ADMIN_TOTP_SECRET, grantWinnings, unusedTotpCode, verifyEmailOf } from "../support";

/**
 * Issue 31, item 5, replayed against a production build (`build/server.js`, demo mode, its
 * own embedded database): a 2x winner's cash is half the pot's cash, the VIP extra is paid
 * in bonus coins from promotions, so another player's card money does not become the
 * winner's withdrawable cash (PRODUCT.md "The multiplier's extra is a gift of the house").
 */
let server: ServerProcess;
let dataDir: string;
let base: string;

test.describe.configure({ mode: "serial", timeout: 60_000 });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  dataDir = newDataDir();
  // No scheduler: the raffle is drawn when the admin completes it, not by the clock.
  server = await startServer(dataDir, { SCHEDULER_ENABLED: "false" });
  await waitUntilReady(server, 110_000);
  base = `http://localhost:${server.port}`;
});

test.afterAll(async () => {
  await stopServer(server);
  removeDataDirs();
});

/** One request as an attacker's script sends it: no cookie jar, no redirects followed. */
function send(path: string, { method = "GET", cookie, form, json }: { method?: string; cookie?: string; form?: Record<string, string>; json?: unknown } = {}) {
  const headers: Record<string, string> = { Origin: base, Accept: "application/json" };
  if (cookie) headers.Cookie = cookie;
  let body: string | undefined;
  if (form) [body, headers["Content-Type"]] = [new URLSearchParams(form).toString(), "application/x-www-form-urlencoded"];
  if (json !== undefined) [body, headers["Content-Type"]] = [JSON.stringify(json), "application/json"];
  return fetch(`${base}${path}`, { method, headers, body, redirect: "manual" });
}

const cookiesOf = (response: Response) =>
  response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");

const query = async <T extends Record<string, unknown>>(sql: string, params: unknown[] = []) =>
  (await withClient(await runningDatabaseUrl(dataDir), (client) => client.query<T>(sql, params))).rows;

/** The demo admin, past the gate with their authenticator code. */
async function admin(): Promise<string> {
  const signedIn = await send("/api/login", { method: "POST", form: { intent: "signin", email: "admin@demo.test", password: "demo-admin-pass" } });
  const cookie = cookiesOf(signedIn);
  const code = await unusedTotpCode("admin@demo.test", DEMO_ADMIN_TOTP_SECRET, await runningDatabaseUrl(dataDir));
  const gate = await send("/admin-access", { method: "POST", cookie, form: { intent: "code", code } });
  expect(gate.status).toBe(302);
  return [cookie, cookiesOf(gate)].filter(Boolean).join("; ");
}

/** A Diamond (2x) player with the 1,000 welcome bonus coins and `won` cash coins, given as test data is. */
async function diamondPlayer(email: string, won: number) {
  const cookie = await signUpOn(base, email);
  await verifyEmailOf(email, await runningDatabaseUrl(dataDir));
  await query("UPDATE users SET vip_tier = 'diamond', vip_expiry = now() + interval '1 day' WHERE email = $1", [email]);
  if (won > 0) await grantWinnings(email, won, await runningDatabaseUrl(dataDir));
  const [user] = await query<{ id: string }>("SELECT id::text AS id FROM users WHERE email = $1", [email]);
  return { id: user!.id, cookie };
}

/** A player's cash and bonus coins, straight from the ledger. */
async function balances(userId: string) {
  const rows = await query<{ kind: string; balance: string }>(
    "SELECT kind::text AS kind, balance::text AS balance FROM ledger_accounts WHERE user_id = $1::uuid AND kind IN ('user', 'user_bonus')",
    [userId],
  );
  const of = (kind: string) => BigInt(rows.find((r) => r.kind === kind)?.balance ?? "0");
  return { cash: of("user"), bonus: of("user_bonus") };
}

test("item 5: a 2x win pays as cash half the pot's cash; the extra is bonus from promotions", async () => {
  // One holds a bonus ticket; the other pays 1,000 bonus and 2,000 of cash for three.
  const bonusPlayer = await diamondPlayer("bonus-ticket@example.com", 0);
  const cashPlayer = await diamondPlayer("cash-tickets@example.com", 2470);
  const [opened] = await query<{ id: string }>(
    `INSERT INTO raffles (kind, tier, entry_price, starts_at, ends_at, seed_hash, seed)
     VALUES ('regular', 'micro', 1000, now() - interval '1 second', now() + interval '1 hour', md5(random()::text), md5(random()::text))
     RETURNING id::text AS id`,
  );
  const raffleId = opened!.id;
  await query(`INSERT INTO ledger_accounts (kind, raffle_id) SELECT k::"LedgerAccountKind", $1::uuid FROM unnest(ARRAY['raffle_pot', 'raffle_pot_bonus']) k`, [
    raffleId,
  ]);
  expect((await send(`/api/raffles/${raffleId}/enter`, { method: "POST", cookie: bonusPlayer.cookie, json: {} })).status).toBe(200);
  for (let i = 0; i < 3; i++) expect((await send(`/api/raffles/${raffleId}/enter`, { method: "POST", cookie: cashPlayer.cookie, json: {} })).status).toBe(200);
  const pot = await query<{ kind: string; balance: string }>(
    "SELECT kind::text AS kind, balance::text AS balance FROM ledger_accounts WHERE raffle_id = $1::uuid ORDER BY kind",
    [raffleId],
  );
  expect(pot).toEqual([
    { kind: "raffle_pot", balance: "2000" },
    { kind: "raffle_pot_bonus", balance: "2000" },
  ]);
  const before = { bonusPlayer: await balances(bonusPlayer.id), cashPlayer: await balances(cashPlayer.id) };

  const completed = await send(`/api/admin/raffles/${raffleId}/complete`, { method: "POST", cookie: await admin(), json: {} });
  expect(await completed.json()).toMatchObject({ outcome: "completed", raffleId });
  const [raffle] = await query<{ winner: string; prize: string; rake: string; extra: string; pot: string }>(
    `SELECT winner_id::text AS winner, prize::text AS prize, rake::text AS rake, prize_extra::text AS extra, final_pot::text AS pot
     FROM raffles WHERE id = $1::uuid`,
    [raffleId],
  );
  // Whoever won (both are 2x): base prize 2,000 in the pot's mix, extra 2,000 in bonus, half the pot to the house.
  expect(raffle).toMatchObject({ prize: "4000", rake: "2000", extra: "2000", pot: "4000" });
  const [winner, loser] = raffle!.winner === bonusPlayer.id ? [bonusPlayer, cashPlayer] : [cashPlayer, bonusPlayer];
  const was = winner === bonusPlayer ? before.bonusPlayer : before.cashPlayer;
  // The winner's new cash is half the pot's cash (1,000 of 2,000), never the card money of the whole pot.
  expect(await balances(winner.id)).toEqual({ cash: was.cash + 1000n, bonus: was.bonus + 1000n + 2000n });
  expect(await balances(loser.id)).toEqual(loser === bonusPlayer ? before.bonusPlayer : before.cashPlayer);
});
