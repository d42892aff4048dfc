import { describe, expect, it } from "vitest";
import { db } from "~/models/db.server";
import { usernameKey } from "~/shared/username";
import { call, sessionCookie } from "../support/app";
import { createTestUser } from "../support/factories";

/** Usernames unique by how they look, names the site keeps, one change per 30 days (ADR 024). */
const claim = (cookie: string, username: string) => call("/api/auth/create-username", { method: "POST", cookie, json: { username } });

async function newcomers(n: number) {
  const players = await Promise.all(Array.from({ length: n }, () => createTestUser({ username: false })));
  return Promise.all(players.map(async (p) => ({ id: p.id, cookie: await sessionCookie(p.id) })));
}

const TAKEN = { message: "That username is already taken. Try another one!" };

describe("look-alike usernames", () => {
  it("gives one of 20 players claiming look-alikes of one name at once the name, and the rest a clear 400", async () => {
    const lookAlikes = [
      "LuckyLlama",
      "LuckyIIama",
      "Lucky1lama",
      "luckyllama",
      "LUCKYLLAMA",
      "LuckyLIama",
      "LuckyL1ama",
      "IuckyLlama",
      "1uckyllama",
      "LuckyLlarna",
    ];
    const players = await newcomers(20);
    const responses = await Promise.all(players.map((p, i) => claim(p.cookie, lookAlikes[i % lookAlikes.length]!)));
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 400)).toHaveLength(19);
    for (const refused of responses.filter((r) => r.status === 400)) expect(await refused.json()).toEqual(TAKEN);
    const named = await db().user.findMany({ where: { id: { in: players.map((p) => p.id) }, username: { not: null } } });
    expect(named).toHaveLength(1);
    expect(named[0]!.usernameKey).toBe(usernameKey("LuckyLlama"));
  });

  it("refuses a name that looks like one already taken, and leaves the player without one", async () => {
    const [first, second] = await newcomers(2);
    expect((await claim(first!.cookie, "DemoPlayer2")).status).toBe(200);
    for (const lookAlike of ["DemoPIayer2", "Dem0Player2", "DernoPlayer2", "demoplayer2"]) {
      const response = await claim(second!.cookie, lookAlike);
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual(TAKEN);
    }
    expect((await db().user.findUniqueOrThrow({ where: { id: second!.id } })).username).toBeNull();
  });

  it("refuses the site's own names, however they are written", async () => {
    const [player] = await newcomers(1);
    for (const name of ["admin", "Admin", "AdmIn", "support", "SUPP0RT", "Real_Admin", "RaffleRush"]) {
      const response = await claim(player!.cookie, name);
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ message: "Username Reserved: That username is reserved. Try another one!" });
    }
    expect((await db().user.findUniqueOrThrow({ where: { id: player!.id } })).username).toBeNull();
  });

  it("computes the same key in the migration's SQL as in the service", async () => {
    const names = ["DemoPlayer", "DemoPIayer", "Lucky_7", "M1M0_mIm0", "ILIil1", "rnrnMM", "O0o_Q", "zz_Top99"];
    for (const name of names) {
      const [row] = await db().$queryRaw<{ key: string }[]>`SELECT replace(translate(lower(${name}), 'i10', 'llo'), 'm', 'rn') AS key`;
      expect(row!.key, name).toBe(usernameKey(name));
    }
  });
});

describe("changing a username", () => {
  const DAY = 24 * 60 * 60 * 1000;

  it("allows the first choice and one change, then one change per 30 days", async () => {
    const [player] = await newcomers(1);
    expect((await claim(player!.cookie, "FirstChoice")).status).toBe(200);
    expect((await claim(player!.cookie, "SecondThought")).status).toBe(200);
    // The same name again changes nothing and is not refused.
    expect((await claim(player!.cookie, "SecondThought")).status).toBe(200);
    const tooSoon = await claim(player!.cookie, "ThirdTry");
    expect(tooSoon.status).toBe(400);
    expect(((await tooSoon.json()) as { message: string }).message).toMatch(
      /^You can change your username once every 30 days\. You can change it again on \d{4}-\d{2}-\d{2} \(UTC\)\.$/,
    );
    expect((await db().user.findUniqueOrThrow({ where: { id: player!.id } })).username).toBe("SecondThought");
    // The name given up is free for others.
    const [other] = await newcomers(1);
    expect((await claim(other!.cookie, "FirstChoice")).status).toBe(200);
    await db().user.update({ where: { id: player!.id }, data: { usernameRenamedAt: new Date(Date.now() - 30 * DAY - 1000) } });
    expect((await claim(player!.cookie, "ThirdTry")).status).toBe(200);
  });

  it("lets one of 10 changes sent at once through", async () => {
    const [player] = await newcomers(1);
    expect((await claim(player!.cookie, "BeforeRush")).status).toBe(200);
    const responses = await Promise.all(Array.from({ length: 10 }, (_, i) => claim(player!.cookie, `RushName${i}`)));
    expect(responses.filter((r) => r.status === 200)).toHaveLength(1);
    expect(responses.filter((r) => r.status === 400)).toHaveLength(9);
    const after = await db().user.findUniqueOrThrow({ where: { id: player!.id } });
    expect(after.username).toMatch(/^RushName\d$/);
    expect(after.usernameRenamedAt).not.toBeNull();
  });
});
