import { createHash, randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "~/models/db.server";
import { createSessionRow, findSession, touchPlay } from "~/models/accounts/session.server";
import { getSession, sessionTokenHash } from "~/web/auth.server";
import { suspendUser } from "~/services/back-office/admin.server";
import { enterRaffle } from "~/services/raffles/raffles.server";
import { enterRaffles } from "~/models/raffles/raffle.server";
import { excludeSelf } from "~/services/play-safety/responsible-play.server";
import * as readModel from "~/infra/read-model.server";
import { LISTENER_NAME } from "~/infra/listener.server";
import { sessionCookie } from "../support/app";
import { createTestRaffle, createTestUser } from "../support/factories";
import { listening } from "../support/listening";
import { scaled } from "../support/timeouts";
import { settled, toldGame, unannounced, withReadModel } from "../support/read-model";

const hashOf = (token: string) => createHash("sha256").update(token).digest("hex");

/** A signed-in GET request for a new session of the user, and the session's token hash. */
async function signedIn(userId: string) {
  const cookie = await sessionCookie(userId);
  const request = () => new Request("http://localhost/", { headers: { Cookie: cookie } });
  return { request, tokenHash: (await sessionTokenHash(request()))! };
}

describe("read_model notifications (the triggers)", () => {
  let listener: Awaited<ReturnType<typeof listening>>;
  const heard = () => listener.payloads("read_model");

  beforeAll(async () => {
    listener = await listening("read_model");
  });
  afterAll(() => listener.end());

  /** Sends a marker and waits until it is heard: everything announced before it has arrived. */
  async function heardUpTo(): Promise<string> {
    const marker = `marker:${randomBytes(4).toString("hex")}`;
    await db().$executeRaw`SELECT announce('read_model', ${marker})`;
    await vi.waitFor(() => expect(heard()).toContain(marker));
    return marker;
  }

  /**
   * What was announced by `change`, between a marker sent before it (so that the setup's own
   * announcements, still on their way, are not counted) and one sent after (so that silence
   * is proven too).
   */
  async function announced(change: () => Promise<unknown>): Promise<string[]> {
    await heardUpTo();
    listener.heard.length = 0;
    await change();
    const marker = await heardUpTo();
    return heard().slice(0, heard().indexOf(marker));
  }

  it("announce a changed or deleted user, and stay silent for an update that changes nothing", async () => {
    const user = await createTestUser();
    expect(await announced(() => db().user.update({ where: { id: user.id }, data: { firstName: "Ada" } }))).toEqual([`user:${user.id}`]);
    expect(await announced(() => db().user.update({ where: { id: user.id }, data: { username: `ada_${randomBytes(3).toString("hex")}` } }))).toEqual([
      `user:${user.id}`,
    ]);
    // Not a name: the account alone (a draw adds to a winner's winnings; the panels stay).
    expect(await announced(() => db().user.update({ where: { id: user.id }, data: { totalWinnings: { increment: 10n } } }))).toEqual([`account:${user.id}`]);
    expect(await announced(() => db().$executeRaw`UPDATE users SET first_name = first_name WHERE id = ${user.id}::uuid`)).toEqual([]);
    // (Deleting a user also touches raffles: their wins lose their winner.)
    expect(await announced(() => db().user.delete({ where: { id: user.id } }))).toContain(`user:${user.id}`);
  });

  it("announce each user a statement changed, as a draw batch does, and none it left as they were", async () => {
    const [a, b, c] = [await createTestUser(), await createTestUser(), await createTestUser()];
    const ids = [a.id, b.id, c.id];
    const told = await announced(
      () => db().$executeRaw`UPDATE users SET first_name = CASE WHEN id = ${a.id}::uuid THEN 'Bo' ELSE first_name END,
        total_winnings = total_winnings + CASE WHEN id = ${c.id}::uuid THEN 0 ELSE 5 END WHERE id = ANY(${ids}::uuid[])`,
    );
    expect(told.sort()).toEqual([`user:${a.id}`, `account:${b.id}`].sort());
    expect((await announced(() => db().user.deleteMany({ where: { id: { in: ids } } }))).filter((t) => t.startsWith("user:")).sort()).toEqual(
      ids.map((id) => `user:${id}`).sort(),
    );
  });

  it("announce an ended or changed session, but not the play tracking written on most requests", async () => {
    const user = await createTestUser();
    const tokenHash = hashOf(randomBytes(32).toString("base64url"));
    const { id } = await createSessionRow({ tokenHash, userId: user.id, expiresAt: new Date(Date.now() + 60_000) });
    expect(await announced(() => touchPlay(id, new Date(Date.now() + 61_000), 30 * 60_000))).toEqual([]);
    expect(await announced(() => db().session.update({ where: { id }, data: { adminGatePassedAt: new Date() } }))).toEqual([`session:${tokenHash}`]);
    expect(await announced(() => db().session.delete({ where: { id } }))).toEqual([`session:${tokenHash}`]);
    expect(await announced(() => db().$executeRawUnsafe(`TRUNCATE sessions`))).toEqual(["reset"]);
  });

  it("announce a player's news written and taken as their account's change, once per player", async () => {
    const [a, b] = [await createTestUser(), await createTestUser()];
    const raffle = await createTestRaffle();
    const notices = [a, b].map((u) => ({ userId: u.id, raffleId: raffle.id, outcome: "refunded", amount: 5n, tickets: 1 }));
    expect((await announced(() => db().outcomeNotice.createMany({ data: notices }))).sort()).toEqual([`account:${a.id}`, `account:${b.id}`].sort());
    expect(await announced(() => db().outcomeNotice.deleteMany({ where: { userId: b.id } }))).toEqual([`account:${b.id}`]);
  });

  it("announce raffle changes once per transaction, but not an entry's counts, which its pot event tells (ADR 101)", async () => {
    const player = await createTestUser({ coins: 100n });
    let raffleId = "";
    expect(await announced(async () => (raffleId = (await createTestRaffle()).id))).toEqual(["raffles"]);
    // The entrant's tickets changed, nothing the lists show (ADR 103).
    expect(await announced(() => enterRaffle({ userId: player.id, raffleId, tickets: 2 }))).toEqual([`tickets:${player.id}`]);
    // Any other writer of the counts is announced: a refund takes tickets back, a script adds them.
    const counts = (by: number) => db().raffle.update({ where: { id: raffleId }, data: { ticketCount: { increment: by } } });
    expect(await announced(() => counts(-1))).toEqual(["raffles"]);
    expect(await announced(() => counts(1))).toEqual(["raffles"]);
    // After an entry, in the same transaction, the rows' other changes are announced again.
    expect(
      await announced(() =>
        db().$transaction(async (tx) => {
          await tx.$executeRaw`SELECT set_config('raffle.pots_told', 'on', true)`;
          await tx.$executeRaw`SELECT set_config('raffle.pots_told', '', true)`;
          await tx.raffle.update({ where: { id: raffleId }, data: { maxTicketsPerPlayer: 9 } });
        }),
      ),
    ).toEqual(["raffles"]);
  });

  it("announce the players whose tickets changed: a batch's entrants, 100 a payload, and a refund's player (ADR 103)", async () => {
    const players = await Promise.all(Array.from({ length: 101 }, () => createTestUser({ coins: 10n })));
    const raffle = await createTestRaffle();
    const rules = { limitName: "test-told", limitMax: 100, playIdleGapMs: 60_000, countries: ["GB"], regions: [], verifyCountries: [] };
    const entries = players.map((p) => ({ userId: p.id, raffleId: raffle.id, tickets: 1, now: new Date() }));
    const told = await announced(() => enterRaffles([...entries, entries[0]!], rules));
    expect(told.map((t) => t.slice(0, 8))).toEqual(["tickets:", "tickets:"]);
    const named = told.flatMap((t) => t.slice(8).split(","));
    expect(named.sort()).toEqual(players.map((p) => p.id).sort());
    expect(told.map((t) => t.length).every((length) => length < 8000)).toBe(true);
    // A break takes a player's tickets back (and their raffle's counts change).
    expect((await announced(() => excludeSelf(players[0]!.id, "24h"))).filter((t) => t.startsWith("tickets:"))).toEqual([`tickets:${players[0]!.id}`]);
  });
});

describe("the read model (sessions and raffles from memory)", () => {
  withReadModel();

  it("serves a signed-in read's session from memory until a change is announced", async () => {
    const user = await createTestUser();
    const { request } = await signedIn(user.id);
    await settled();
    expect((await getSession(request()))?.user.firstName).toBeNull();
    await unannounced(() => db().user.update({ where: { id: user.id }, data: { firstName: "Unannounced" } }));
    expect((await getSession(request()))?.user.firstName).toBeNull(); // from memory
    await db().user.update({ where: { id: user.id }, data: { firstName: "Announced" } });
    await vi.waitFor(async () => expect((await getSession(request()))?.user.firstName).toBe("Announced"));
  });

  it("reads a session again when its player's account change is announced", async () => {
    const user = await createTestUser();
    const { request } = await signedIn(user.id);
    await settled();
    expect((await getSession(request()))?.user.vipTier ?? null).toBeNull();
    await unannounced(() => db().user.update({ where: { id: user.id }, data: { vipTier: "gold", vipExpiry: new Date(Date.now() + 86_400_000) } }));
    expect((await getSession(request()))?.user.vipTier ?? null).toBeNull(); // from memory
    readModel.applyChange(`account:${user.id}`);
    expect((await getSession(request()))?.user.vipTier).toBe("gold");
  });

  it("a write reads the database; forgetting after a write makes the next read see it at once", async () => {
    const user = await createTestUser();
    const { request, tokenHash } = await signedIn(user.id);
    await settled();
    await getSession(request());
    await unannounced(() => db().user.update({ where: { id: user.id }, data: { firstName: "Written" } }));
    const post = new Request("http://localhost/", { method: "POST", headers: request().headers });
    expect((await getSession(post))?.user.firstName).toBe("Written");
    expect((await getSession(request()))?.user.firstName).toBeNull(); // still the memory's
    readModel.afterWrite(tokenHash);
    expect((await getSession(request()))?.user.firstName).toBe("Written");
  });

  it("a suspended player and a session ended elsewhere (another instance) are signed out once announced", async () => {
    const admin = await createTestUser({ isAdmin: true });
    const suspended = await createTestUser();
    const signedOut = await createTestUser();
    const a = await signedIn(suspended.id);
    const b = await signedIn(signedOut.id);
    expect(await getSession(a.request())).toBeDefined();
    expect(await getSession(b.request())).toBeDefined();
    await suspendUser(admin.id, suspended.id, true);
    await db().session.deleteMany({ where: { tokenHash: b.tokenHash } });
    await vi.waitFor(async () => expect(await getSession(a.request())).toBeUndefined());
    await vi.waitFor(async () => expect(await getSession(b.request())).toBeUndefined());
  });

  it("does not keep a read that a change overtook (read before the change, stored after it)", async () => {
    const user = await createTestUser();
    const { tokenHash } = await signedIn(user.id);
    const now = new Date();
    let loads = 0;
    const load = async () => {
      loads++;
      const row = await findSession(tokenHash, now, { countries: ["GB"], regions: [] });
      readModel.applyChange(`user:${user.id}`); // announced while this read was on its way
      return row;
    };
    await readModel.session(tokenHash, now, load);
    await readModel.session(tokenHash, now, load);
    expect(loads).toBe(2);
  });

  it("reads a session once for askers at once (each loader has its own copy of the request), but not across a change", async () => {
    const user = await createTestUser();
    const { tokenHash } = await signedIn(user.id);
    await settled();
    const now = new Date();
    let loads = 0;
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const load = async () => {
      loads++;
      await gate;
      return findSession(tokenHash, now, { countries: ["GB"], regions: [] });
    };
    // The root's and the page's loader, both before the first read is back: one read.
    const [root, page] = [readModel.session(tokenHash, now, load), readModel.session(tokenHash, now, load)];
    // A change heard while it is on its way: a later asker reads again.
    readModel.applyChange(`account:${user.id}`);
    const later = readModel.session(tokenHash, now, load);
    release();
    const sessions = await Promise.all([root, page, later]);
    expect(loads).toBe(2);
    expect(sessions.map((s) => s?.user.id)).toEqual([user.id, user.id, user.id]);
  });

  it("keeps the shared panels through entries' pot changes, and reads them again at a draw (the heavy ones aside) or a player's change", async () => {
    const raffle = await createTestRaffle();
    const key = `test-panel:${randomBytes(4).toString("hex")}`;
    let loads = 0;
    const load = async () => ++loads;
    let heavyLoads = 0;
    const heavy = () => readModel.panel(`${key}:heavy`, async () => ++heavyLoads, { heavy: true });
    await settled();
    expect(await readModel.panel(key, load)).toBe(1);
    expect(await heavy()).toBe(1);
    // An entry: the raffle's row changes and its pot moves. The panels stay.
    readModel.applyChange("raffles");
    await toldGame({ type: "pot", raffleId: raffle.id, kind: "regular", currentPot: "0.05", participantCount: 1, ticketCount: 1 });
    expect(await readModel.panel(key, load)).toBe(1);
    // A draw: the winners change. The heavy panels (the day's figures) wait for their 5 s.
    await toldGame({ type: "drawn", raffleId: raffle.id, kind: "regular", outcome: "cancelled" });
    expect(await readModel.panel(key, load)).toBe(2);
    expect(await heavy()).toBe(1);
    // A player's account (news of a draw, winnings): their sessions, not the panels.
    readModel.applyChange(`account:${randomBytes(4).toString("hex")}`);
    expect(await readModel.panel(key, load)).toBe(2);
    expect(await heavy()).toBe(1);
    // A player's name (it shows on the panels, the leaderboard among them).
    readModel.applyChange(`user:${randomBytes(4).toString("hex")}`);
    expect(await readModel.panel(key, load)).toBe(3);
    expect(await heavy()).toBe(2);
  });

  it("serves a panel past its 5 s from memory while one read refreshes it behind", async () => {
    await settled();
    const key = `test-stale:${randomBytes(4).toString("hex")}`;
    let loads = 0;
    const load = async () => ++loads;
    expect(await readModel.panel(key, load)).toBe(1);
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      vi.setSystemTime(Date.now() + 6_000);
      expect(await readModel.panel(key, load)).toBe(1);
      await vi.waitFor(() => expect(loads).toBe(2));
      expect(await readModel.panel(key, load)).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it("caches nothing while the listening connection is down, and again once it is back", async () => {
    const user = await createTestUser();
    const { request } = await signedIn(user.id);
    await settled();
    await getSession(request());
    await db().$executeRawUnsafe(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = '${LISTENER_NAME}' AND datname = current_database()`,
    );
    await vi.waitFor(() => expect(readModel.readModelEnabled()).toBe(false));
    await unannounced(() => db().user.update({ where: { id: user.id }, data: { firstName: "While down" } }));
    expect((await getSession(request()))?.user.firstName).toBe("While down");
    await vi.waitFor(() => expect(readModel.readModelEnabled()).toBe(true), { timeout: scaled(10_000) });
    await settled();
    await getSession(request());
    await unannounced(() => db().user.update({ where: { id: user.id }, data: { firstName: "Back up" } }));
    expect((await getSession(request()))?.user.firstName).toBe("While down"); // from memory again
  });
});
