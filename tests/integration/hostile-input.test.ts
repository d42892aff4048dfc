import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/models/db.server";
import { requestWithdrawal } from "~/services/money/withdrawals.server";
import { enterRaffle } from "~/services/raffles/raffles.server";
import { fileComplaint } from "~/services/back-office/complaints.server";
import { readToast } from "~/web/toast.server";
import { call, routeTable, sessionCookie } from "../support/app";
import { createTestRaffle, createTestUser } from "../support/factories";
import {
  FUZZ_RUNS,
  hostileBody,
  hostileFields,
  hostileHeaders,
  hostileParam,
  hostileQuery,
  nastyBodies,
  nastyQueries,
  type HostileBody,
} from "../support/hostile";
import { FUZZ, type Fuzz, type Role } from "../support/hostile-routes";
import { ledgerSnapshot } from "../support/ledger-snapshot";
import { scaled } from "../support/timeouts";

// One test is a route's whole batch, each nasty value alone and then FUZZ_RUNS random cases,
// one request after another (a sign-in is a scrypt hash each): its budget grows with the number of cases.
const ROUTE_TIMEOUT = scaled(60_000 + 5_000 * FUZZ_RUNS);

/**
 * Every route, fed generated hostile input through the production build: loaders get
 * hostile path parameters, query strings and headers; actions also get hostile bodies
 * in every encoding. Whatever arrives, the answer is never a 5xx, and a refused request
 * (4xx, or a redirect with an error toast) leaves the ledger exactly as it was.
 * A route without a row in tests/support/hostile-routes.ts fails the first test: new routes must be fuzzed too.
 * The 10 MB bodies go through a real server: tests/e2e/process/body-limit.spec.ts.
 */

type World = { cookies: Record<Role, string | undefined>; ids: Record<NonNullable<Fuzz["id"]>, string> };
let shared: Omit<World, "cookies"> & { cookies: Omit<World["cookies"], "player"> };

/** What every route may touch: an admin past the gate, a newcomer, a payout waiting, raffles open. */
beforeAll(async () => {
  const admin = await createTestUser({ isAdmin: true, coins: 1_000n });
  const newcomer = await createTestUser({ username: false });
  const payee = await createTestUser({ cash: 50_000n });
  const payout = await requestWithdrawal(payee.id, { amount: "20.00", method: "venmo", fields: { username: "payee" } });
  const quickRaffle = await createTestRaffle({ kind: "quick", tier: "lightning" });
  const complaint = await fileComplaint(payee.id, { subject: "payout", reference: payout.id, message: "My payout has not arrived yet." });
  const cookies = { anonymous: undefined, admin: await sessionCookie(admin.id), newcomer: await sessionCookie(newcomer.id) };
  await db().session.updateMany({ where: { userId: admin.id }, data: { adminGatePassedAt: new Date() } });
  shared = { cookies, ids: { raffle: "", receipt: "", quickRaffle: quickRaffle.id, payout: payout.id, user: payee.id, complaint: complaint.id } };
});

/** A player and a raffle of the route's own, so that one route's effects (a break, a completed draw) never shape another's. */
async function world(row: Fuzz): Promise<World & { playerId: string }> {
  const player = await createTestUser({ coins: 100_000n, vipTier: "gold", vipExpiry: new Date(Date.now() + 86_400_000) });
  const raffle = await createTestRaffle();
  // A receipt's route gets a ticket of the player's to name (ADR 079).
  if (row.id === "receipt") await enterRaffle({ userId: player.id, raffleId: raffle.id });
  const receipt = row.id === "receipt" ? (await db().entry.findFirstOrThrow({ where: { userId: player.id } })).id : "";
  return {
    playerId: player.id,
    cookies: { ...shared.cookies, player: await sessionCookie(player.id) },
    ids: { ...shared.ids, raffle: raffle.id, receipt },
  };
}

/** The refusal a response carries: a 4xx, or a redirect whose flash toast is an error. */
async function refused(response: Response): Promise<boolean> {
  if (response.status >= 400) return true;
  const toastCookie = response.headers.getSetCookie().find((c) => c.startsWith("__toast="));
  if (!toastCookie) return false;
  const { toast } = await readToast(new Request("http://localhost/", { headers: { Cookie: toastCookie.split(";")[0]! } }));
  return toast?.type === "error";
}

const fuzzedRoutes = routeTable;

describe("hostile input", () => {
  it("has a row for every route", () => {
    expect(Object.keys(FUZZ).sort()).toEqual(fuzzedRoutes.map((r) => r.id).sort());
  });

  for (const route of fuzzedRoutes) {
    const row = FUZZ[route.id];
    if (!row) continue;
    const at = row.at ?? route.path;
    for (const method of [route.loader ? "GET" : undefined, route.action ? "POST" : undefined].filter(Boolean) as string[]) {
      it(`${method} ${at}: never a 5xx, and a refusal changes nothing`, { timeout: ROUTE_TIMEOUT }, async () => {
        const { cookies, ids, playerId } = await world(row);
        const param = hostileParam([row.id ? ids[row.id] : "x"]);
        const body = method === "POST" ? hostileFields(row.fields ?? [], row.plausible).chain(hostileBody) : fc.constant(undefined);
        const known = row.id ? ids[row.id] : "x";
        // Each field (or query parameter) alone with each nasty value, before the random cases.
        const examples: [string, string, Record<string, string>, HostileBody | undefined][] =
          method === "POST"
            ? nastyBodies(row.fields ?? [], row.plausible).map((b) => [known, "", {}, b])
            : nastyQueries(row.query ?? []).map((q) => [known, q, {}, undefined]);
        await fc.assert(
          fc.asyncProperty(param, hostileQuery(row.query ?? []), hostileHeaders, body, async (id, query, headers, payload) => {
            // Rate limits would answer most runs with a 429 before the input is read.
            await db().rateLimitBucket.deleteMany();
            const path = at.replace(":id", id).replace("*", `no/such/${id}`) + query;
            // Signing out ends the session: that route gets a session of its own each time.
            const cookie = route.id === "routes/api.logout" ? await sessionCookie(playerId) : cookies[row.as];
            const before = await ledgerSnapshot();
            const complaintsBefore = await db().complaint.count();
            const response = await call(path, {
              method,
              cookie,
              headers: { ...headers, ...(payload?.contentType ? { "Content-Type": payload.contentType } : {}) },
              body: payload?.body,
            });
            const label = `${method} ${path} ${payload?.label ?? ""} → ${response.status}`;
            expect(response.status, label).toBeLessThan(500);
            if (await refused(response)) {
              expect(await ledgerSnapshot(), label).toEqual(before);
              expect(await db().complaint.count(), label).toBe(complaintsBefore);
            }
            const json = response.headers.get("Content-Type")?.includes("application/json");
            if (response.status >= 400 && json && path.startsWith("/api/") && route.id !== "routes/api.login") {
              // The API says what was wrong.
              expect(((await response.json()) as { message?: unknown }).message, label).toEqual(expect.stringMatching(/\w/));
            } else {
              await response.body?.cancel();
            }
          }),
          // fast-check counts examples within numRuns: every example runs, then FUZZ_RUNS random cases.
          { numRuns: examples.length + FUZZ_RUNS, examples },
        );
      });
    }
  }
});
