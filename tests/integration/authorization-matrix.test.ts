import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/models/db.server";
import { setSuspension } from "~/services/accounts/sign-up.server";
import { call, routeIds, sessionCookie, type Call } from "../support/app";
import { createTestUser } from "../support/factories";

/**
 * Every route × every kind of visitor → the expected status (or redirect target).
 * A route without a row here fails the first test: new routes must declare who may
 * use them.
 */
type Role = "anonymous" | "player" | "admin" | "gatedAdmin" | "suspended";
type Expect = number | `→${string}`;
type Row = { request: [string, Call?]; expect: Record<Role, Expect> };

const UNKNOWN = "00000000-0000-4000-8000-000000000000";
const LOGIN = (returnTo: string) => `→/api/login?returnTo=${encodeURIComponent(returnTo)}` as const;
const all = (expect: Expect): Record<Role, Expect> => ({ anonymous: expect, player: expect, admin: expect, gatedAdmin: expect, suspended: expect });
const signedIn = (anon: Expect, signed: Expect): Record<Role, Expect> => ({
  anonymous: anon,
  suspended: anon,
  player: signed,
  admin: signed,
  gatedAdmin: signed,
});
const api = (signed: Expect) => signedIn(401, signed);
/** /api/admin/*: 401 signed out, 403 without the flag or the gate. */
const staffRefused = (others: Record<Role, Expect>): Record<Role, Expect> => ({ ...others, admin: 403, gatedAdmin: 403 });
const adminApi = (gated: Expect): Record<Role, Expect> => ({ anonymous: 401, suspended: 401, player: 403, admin: 403, gatedAdmin: gated });
/** The back office's forms (/admin/..., ADR 040): sign-in, or the gate, or back to /admin with a toast. */
const adminPage: Record<Role, Expect> = {
  anonymous: LOGIN("/admin"),
  suspended: LOGIN("/admin"),
  player: "→/admin-access",
  admin: "→/admin-access",
  gatedAdmin: "→/admin",
};
/** A back-office tab: sign-in, or the gate, or the page. */
const adminTab = (path: string): Row => ({
  request: [path],
  expect: { anonymous: LOGIN(path), suspended: LOGIN(path), player: "→/admin-access", admin: "→/admin-access", gatedAdmin: 200 },
});

const MATRIX: Record<string, Row> = {
  "routes/$": { request: ["/no/such/page"], expect: all(404) },
  "routes/_index": { request: ["/"], expect: all(200) },
  "routes/theme": { request: ["/theme", { method: "POST", form: { theme: "dark", redirectTo: "/" } }], expect: all("→/") },
  "routes/api.login": { request: ["/api/login"], expect: signedIn(200, "→/") },
  "routes/api.auth.callback": { request: ["/api/auth/callback"], expect: all(404) },
  // GET asks to confirm (its form POSTs); nobody signed in: back home.
  "routes/api.logout": { request: ["/api/logout"], expect: signedIn("→/", 200) },
  "routes/onboarding": { request: ["/onboarding"], expect: signedIn(LOGIN("/onboarding"), "→/") },
  "routes/api.auth.user": { request: ["/api/auth/user"], expect: api(200) },
  "routes/api.auth.create-username": {
    request: ["/api/auth/create-username", { method: "POST", json: { username: "x" } }],
    expect: api(400),
  },
  // The spec's gate has its own signed-out state ("Authentication Required").
  "routes/admin-access": { request: ["/admin-access"], expect: all(200) },
  // The back office's layout and its tabs (ADR 043): each tab's loader guards itself.
  "routes/admin": adminTab("/admin/ledger?revenue=weekly"),
  "routes/admin._index": {
    request: ["/admin"],
    expect: { anonymous: LOGIN("/admin"), suspended: LOGIN("/admin"), player: "→/admin-access", admin: "→/admin-access", gatedAdmin: "→/admin/payouts" },
  },
  "routes/admin.payouts": adminTab("/admin/payouts"),
  "routes/admin.users": adminTab("/admin/users?q=x"),
  "routes/admin.raffles": adminTab("/admin/raffles?empty=1"),
  "routes/admin.audit": adminTab("/admin/audit?actor=admin"),
  "routes/admin.ledger": adminTab("/admin/ledger"),
  "routes/admin.complaints": adminTab("/admin/complaints"),
  "routes/api.raffles._index": { request: ["/api/raffles"], expect: api(200) },
  "routes/api.quick-raffles._index": { request: ["/api/quick-raffles"], expect: api(200) },
  // Staff do not play (PRODUCT.md): an admin's entry is refused before the raffle is looked up.
  "routes/api.raffles.$id.enter": { request: [`/api/raffles/${UNKNOWN}/enter`, { method: "POST", json: {} }], expect: staffRefused(api(404)) },
  "routes/api.quick-raffles.$id.enter": {
    request: [`/api/quick-raffles/${UNKNOWN}/enter`, { method: "POST", json: {} }],
    expect: staffRefused(api(404)),
  },
  "routes/api.stats": { request: ["/api/stats"], expect: api(200) },
  "routes/api.recent-winners": { request: ["/api/recent-winners"], expect: api(200) },
  "routes/api.recent-quick-winners": { request: ["/api/recent-quick-winners"], expect: api(200) },
  "routes/api.leaderboard": { request: ["/api/leaderboard"], expect: api(200) },
  "routes/api.daily-spin.status": { request: ["/api/daily-spin/status"], expect: api(200) },
  "routes/api.daily-spin._index": { request: ["/api/daily-spin", { method: "POST", json: {} }], expect: api(200) },
  "routes/api.vip.claim-daily-bonus": { request: ["/api/vip/claim-daily-bonus", { method: "POST", json: {} }], expect: api(403) },
  "routes/api.vip.status": { request: ["/api/vip/status"], expect: api(200) },
  "routes/api.vip.benefits": { request: ["/api/vip/benefits"], expect: api(200) },
  "routes/api.events": { request: ["/api/events"], expect: api(200) },
  "routes/terms": { request: ["/terms"], expect: all(200) },
  "routes/privacy": { request: ["/privacy"], expect: all(200) },
  "routes/forgot-password": { request: ["/forgot-password"], expect: all(200) },
  // An unknown token: the page says the link expired.
  "routes/reset-password.$token": { request: ["/reset-password/not-a-token"], expect: all(200) },
  // The link's token proves the address; the code and "resend" need the player's session.
  "routes/verify-email": { request: ["/verify-email", { method: "POST", form: { intent: "resend" } }], expect: signedIn(LOGIN("/verify-email"), "→/withdraw") },
  // Demo mode's mailbox (the suite runs in demo mode without SMTP_URL).
  "routes/dev.mail._index": { request: ["/dev/mail"], expect: all(200) },
  "routes/dev.mail.$id": { request: ["/dev/mail/0-nope"], expect: all(404) },
  "routes/quick": { request: ["/quick"], expect: signedIn(LOGIN("/quick"), 200) },
  "routes/quick-raffles": { request: ["/quick-raffles"], expect: signedIn(LOGIN("/quick-raffles"), 200) },
  "routes/vip._index": { request: ["/vip"], expect: signedIn(LOGIN("/vip"), 200) },
  "routes/checkout": { request: ["/checkout?package=package_1"], expect: signedIn(LOGIN("/checkout?package=package_1"), 200) },
  "routes/vip-checkout": { request: ["/vip/checkout?tier=gold"], expect: signedIn(LOGIN("/vip/checkout?tier=gold"), 200) },
  "routes/checkout-success": { request: ["/checkout-success"], expect: signedIn(LOGIN("/checkout-success"), "→/") },
  "routes/api.create-payment-intent": { request: ["/api/create-payment-intent", { method: "POST", json: { packageId: "nope" } }], expect: api(400) },
  "routes/api.vip.subscribe": { request: ["/api/vip/subscribe", { method: "POST", json: { tier: "nope" } }], expect: api(400) },
  "routes/api.confirm-payment": { request: ["/api/confirm-payment", { method: "POST", json: { paymentIntentId: "pi_unknown" } }], expect: api(404) },
  // Server to server: no session, a signature instead.
  "routes/api.stripe.webhook": { request: ["/api/stripe/webhook", { method: "POST", body: "{}" }], expect: all(400) },
  "routes/withdraw": { request: ["/withdraw"], expect: signedIn(LOGIN("/withdraw"), 200) },
  "routes/api.withdraw": { request: ["/api/withdraw", { method: "POST", json: { amount: 1, method: "venmo", accountInfo: "x" } }], expect: api(422) },
  "routes/api.withdrawals": { request: ["/api/withdrawals"], expect: api(200) },
  "routes/api.withdraw-preview": { request: ["/api/withdraw-preview?amount=10"], expect: api(200) },
  "routes/api.admin.dashboard": { request: ["/api/admin/dashboard"], expect: adminApi(200) },
  "routes/api.admin.users._index": { request: ["/api/admin/users?q=x&page=0"], expect: adminApi(200) },
  "routes/api.admin.raffles._index": { request: ["/api/admin/raffles"], expect: adminApi(200) },
  "routes/api.admin.payouts._index": { request: ["/api/admin/payouts"], expect: adminApi(200) },
  "routes/api.admin.transfers": { request: ["/api/admin/transfers"], expect: adminApi(200) },
  "routes/api.admin.refunds._index": { request: ["/api/admin/refunds"], expect: adminApi(200) },
  "routes/api.admin.audit": { request: ["/api/admin/audit"], expect: adminApi(200) },
  "routes/api.admin.ledger": { request: ["/api/admin/ledger"], expect: adminApi(200) },
  // Complaints (ADR 081): a player's own; the queue and its actions the back office's.
  "routes/complaints._index": { request: ["/complaints"], expect: signedIn(LOGIN("/complaints"), 200) },
  "routes/complaints.new": { request: ["/complaints/new?subject=draw"], expect: signedIn(LOGIN("/complaints/new?subject=draw"), 200) },
  "routes/api.complaints": { request: ["/api/complaints", { method: "POST", json: { subject: "other", message: "" } }], expect: api(400) },
  "routes/api.admin.complaints._index": { request: ["/api/admin/complaints"], expect: adminApi(200) },
  "routes/api.admin.complaints.$id.answer": {
    request: [`/api/admin/complaints/${UNKNOWN}/answer`, { method: "POST", json: { answer: "An answer to nothing at all." } }],
    expect: adminApi(404),
  },
  "routes/api.admin.complaints.$id.close": { request: [`/api/admin/complaints/${UNKNOWN}/close`, { method: "POST", json: {} }], expect: adminApi(404) },
  "routes/admin_.complaints.$id.answer": {
    request: [`/admin/complaints/${UNKNOWN}/answer`, { method: "POST", form: { answer: "An answer to nothing at all." } }],
    expect: adminPage,
  },
  "routes/admin_.complaints.$id.close": { request: [`/admin/complaints/${UNKNOWN}/close`, { method: "POST", form: {} }], expect: adminPage },
  "routes/api.admin.payouts.bulk-approve": { request: ["/api/admin/payouts/bulk-approve", { method: "POST", json: { maxAmount: 75 } }], expect: adminApi(400) },
  "routes/api.admin.payouts.$id.approve": { request: [`/api/admin/payouts/${UNKNOWN}/approve`, { method: "POST", json: {} }], expect: adminApi(404) },
  "routes/api.admin.payouts.$id.reject": {
    request: [`/api/admin/payouts/${UNKNOWN}/reject`, { method: "POST", json: { reason: "Admin review" } }],
    expect: adminApi(404),
  },
  "routes/api.admin.payouts.$id.transfer": {
    request: [`/api/admin/payouts/${UNKNOWN}/transfer`, { method: "POST", json: { reference: "BANK-1" } }],
    expect: adminApi(404),
  },
  "routes/api.admin.refunds.$id.reconcile": {
    request: [`/api/admin/refunds/${UNKNOWN}/reconcile`, { method: "POST", json: { reference: "re_1" } }],
    expect: adminApi(404),
  },
  "routes/api.admin.users.$id.clear-flag": {
    request: [`/api/admin/users/${UNKNOWN}/clear-flag`, { method: "POST", json: { flaggedAt: "2026-11-26T10:00:00.000Z", note: "Reconciled" } }],
    expect: adminApi(404),
  },
  "routes/api.admin.raffles.$id.complete": { request: [`/api/admin/raffles/${UNKNOWN}/complete`, { method: "POST", json: {} }], expect: adminApi(404) },
  "routes/api.admin.users.$id.verify": {
    request: [`/api/admin/users/${UNKNOWN}/verify`, { method: "POST", json: { reason: "passport seen by support" } }],
    expect: adminApi(404),
  },
  "routes/api.admin.users.$id.exclusion": {
    request: [`/api/admin/users/${UNKNOWN}/exclusion`, { method: "POST", json: { choice: "1y" } }],
    expect: adminApi(404),
  },
  "routes/api.reality-check": { request: ["/api/reality-check"], expect: api(200) },
  // In-page actions (ADR 040): back to the page with a toast; signed out, to sign-in with the spec's toast.
  "routes/reality-check": { request: ["/reality-check", { method: "POST", form: {} }], expect: signedIn(LOGIN("/"), "→/") },
  "routes/raffles.$id.enter": { request: [`/raffles/${UNKNOWN}/enter`, { method: "POST", form: {} }], expect: signedIn(LOGIN("/"), "→/") },
  "routes/quick-raffles.$id.enter": {
    request: [`/quick-raffles/${UNKNOWN}/enter`, { method: "POST", form: {} }],
    expect: signedIn(LOGIN("/quick"), "→/quick"),
  },
  "routes/daily-spin": { request: ["/daily-spin", { method: "POST", form: {} }], expect: signedIn(LOGIN("/"), "→/") },
  "routes/vip.claim-daily-bonus": { request: ["/vip/claim-daily-bonus", { method: "POST", form: {} }], expect: signedIn(LOGIN("/vip"), "→/vip") },
  "routes/account.username": { request: ["/account/username", { method: "POST", form: { username: "x" } }], expect: signedIn(LOGIN("/"), "→/") },
  "routes/api.admin.users.$id.suspend": {
    request: [`/api/admin/users/${UNKNOWN}/suspend`, { method: "POST", json: { suspended: true } }],
    expect: adminApi(404),
  },
  "routes/admin_.payouts.bulk-approve": { request: ["/admin/payouts/bulk-approve", { method: "POST", form: { maxAmount: "75" } }], expect: adminPage },
  "routes/admin_.payouts.$id.approve": { request: [`/admin/payouts/${UNKNOWN}/approve`, { method: "POST", form: {} }], expect: adminPage },
  "routes/admin_.payouts.$id.reject": {
    request: [`/admin/payouts/${UNKNOWN}/reject`, { method: "POST", form: { reason: "Admin review" } }],
    expect: adminPage,
  },
  "routes/admin_.payouts.$id.transfer": {
    request: [`/admin/payouts/${UNKNOWN}/transfer`, { method: "POST", form: { reference: "BANK-1" } }],
    expect: adminPage,
  },
  "routes/admin_.refunds.$id.reconcile": {
    request: [`/admin/refunds/${UNKNOWN}/reconcile`, { method: "POST", form: { reference: "re_1" } }],
    expect: adminPage,
  },
  "routes/admin_.users.$id.clear-flag": {
    request: [`/admin/users/${UNKNOWN}/clear-flag`, { method: "POST", form: { flaggedAt: "2026-11-26T10:00:00.000Z", note: "Reconciled" } }],
    expect: adminPage,
  },
  "routes/admin_.raffles.$id.complete": { request: [`/admin/raffles/${UNKNOWN}/complete`, { method: "POST", form: {} }], expect: adminPage },
  "routes/admin_.users.$id.verify": {
    request: [`/admin/users/${UNKNOWN}/verify`, { method: "POST", form: { reason: "passport seen by support" } }],
    expect: adminPage,
  },
  "routes/admin_.users.$id.exclusion": { request: [`/admin/users/${UNKNOWN}/exclusion`, { method: "POST", form: { choice: "1y" } }], expect: adminPage },
  "routes/admin_.users.$id.suspend": { request: [`/admin/users/${UNKNOWN}/suspend`, { method: "POST", form: { suspended: "true" } }], expect: adminPage },
  "routes/rules": { request: ["/rules"], expect: all(200) },
  "routes/history[.]csv": { request: ["/history.csv"], expect: signedIn(LOGIN("/history.csv"), 200) },
  "routes/responsible-play": { request: ["/responsible-play"], expect: all(200) },
  "routes/settings": { request: ["/settings"], expect: signedIn(LOGIN("/settings"), 200) },
  "routes/settings_.two-factor": { request: ["/settings/two-factor"], expect: signedIn(LOGIN("/settings/two-factor"), 200) },
  // Only after the right password (a signed cookie of 5 minutes); anyone else starts again.
  "routes/login.two-factor": { request: ["/login/two-factor"], expect: all("→/api/login") },
  "routes/api.settings": { request: ["/api/settings", { method: "POST", form: { soundEffects: "on" } }], expect: api(200) },
  "routes/account._index": { request: ["/account"], expect: signedIn(LOGIN("/account"), 200) },
  "routes/verify": { request: ["/verify"], expect: signedIn(LOGIN("/verify"), 200) },
  // Demo mode's identity page: only the player's own check (an unknown one is not found).
  "routes/verify_.demo.$id": {
    request: [`/verify/demo/demo_vs_${"0".repeat(24)}`],
    expect: signedIn(LOGIN(`/verify/demo/demo_vs_${"0".repeat(24)}`), 404),
  },
  "routes/account.close": { request: ["/account/close"], expect: signedIn(LOGIN("/account/close"), 200) },
  "routes/account.email": { request: ["/account/email"], expect: signedIn(LOGIN("/account/email"), 200) },
  "routes/account.passkeys": { request: ["/account/passkeys"], expect: signedIn(LOGIN("/account/passkeys"), 200) },
  // An admin adds a passkey only past the admin gate (it then opens the gate: ADR 037).
  "routes/passkeys.register": {
    request: ["/passkeys/register", { method: "POST", json: { intent: "options" } }],
    expect: { ...signedIn(LOGIN("/passkeys/register"), 200), admin: 403 },
  },
  "routes/passkeys.sign-in": { request: ["/passkeys/sign-in", { method: "POST", json: { intent: "options" } }], expect: all(200) },
  "routes/account.export": { request: ["/account/export"], expect: signedIn(LOGIN("/account/export"), 200) },
  "routes/history": { request: ["/history?type=entries"], expect: signedIn(LOGIN("/history?type=entries"), 200) },
  "routes/api.fair.$id": { request: [`/api/fair/${UNKNOWN}`], expect: all(404) },
  "routes/fair.$id": { request: [`/fair/${UNKNOWN}`], expect: all(404) },
  "routes/fair._index": { request: ["/fair"], expect: all(200) },
  "routes/fair.draw-verifier[.]mjs": { request: ["/fair/draw-verifier.mjs"], expect: all(200) },
  "routes/fair.feed[.]xml": { request: ["/fair/feed.xml"], expect: all(200) },
  // A receipt is its holder's only: anyone else's, or no ticket, is 404 (ADR 079).
  "routes/receipts.$id": { request: [`/receipts/${UNKNOWN}`], expect: signedIn(LOGIN(`/receipts/${UNKNOWN}`), 404) },
  "routes/receipts.$id.receipt[.]json": {
    request: [`/receipts/${UNKNOWN}/receipt.json`],
    expect: signedIn(LOGIN(`/receipts/${UNKNOWN}/receipt.json`), 404),
  },
};

const cookies: Partial<Record<Role, string>> = {};

beforeAll(async () => {
  const player = await createTestUser();
  const admin = await createTestUser({ isAdmin: true });
  const gated = await createTestUser({ isAdmin: true });
  const suspended = await createTestUser();
  cookies.player = await sessionCookie(player.id);
  cookies.admin = await sessionCookie(admin.id);
  cookies.gatedAdmin = await sessionCookie(gated.id);
  await db().session.updateMany({ where: { userId: gated.id }, data: { adminGatePassedAt: new Date() } });
  cookies.suspended = await sessionCookie(suspended.id);
  await setSuspension(admin.id, suspended.id, true);
});

function outcome(response: Response): Expect {
  const location = response.headers.get("Location");
  return response.status >= 300 && response.status < 400 && location ? `→${location}` : response.status;
}

describe("the authorization matrix", () => {
  it("has a row for every route", () => {
    expect(Object.keys(MATRIX).sort()).toEqual([...routeIds].sort());
  });

  for (const [routeId, row] of Object.entries(MATRIX)) {
    for (const role of ["anonymous", "player", "admin", "gatedAdmin", "suspended"] as const) {
      it(`${routeId} as ${role} → ${row.expect[role]}`, async () => {
        const [path, init = {}] = row.request;
        // (GET /api/logout only asks to confirm: the session the next rows use survives it.)
        const response = await call(path, { ...init, cookie: cookies[role] });
        await response.body?.cancel();
        expect(outcome(response)).toBe(row.expect[role]);
      });
    }
  }
});
