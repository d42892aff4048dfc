import { createHash, randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "~/models/db.server";
import { createSessionRow, findSession, sessionUserSelect } from "~/models/accounts/session.server";
import { createTestUser } from "../support/factories";

const hashOf = (token: string) => createHash("sha256").update(token).digest("hex");
/** The places served, as the service passes them: the test users live in GB. */
const places = { countries: ["GB"], regions: ["US-NJ"] };

describe("findSession (one statement on every signed-in request)", () => {
  it("reads the session and its user exactly as Prisma's typed reads do, every field set or empty", async () => {
    const now = new Date();
    const full = await createTestUser({ vipTier: "gold", vipExpiry: new Date(now.getTime() + 86_400_000), isAdmin: true });
    await db().user.update({
      where: { id: full.id },
      data: {
        firstName: "Ada",
        totalWinnings: 9_007_199_254_740_993n,
        dateOfBirth: new Date("1988-02-29"),
        suspendedAt: new Date(now.getTime() - 1_000),
        realityCheckMinutes: 30,
        excludedUntil: new Date(now.getTime() + 3_600_000),
        exclusionKind: "self_exclusion",
      },
    });
    const empty = await createTestUser({ username: false });
    await db().user.update({ where: { id: empty.id }, data: { dateOfBirth: null, termsAcceptedAt: null, country: null } });

    for (const user of [full, empty]) {
      const token = randomBytes(32).toString("base64url");
      const { id } = await createSessionRow({ tokenHash: hashOf(token), userId: user.id, expiresAt: new Date(now.getTime() + 60_000) });
      if (user === full) {
        await db().session.update({
          where: { id },
          data: { adminGatePassedAt: new Date(now.getTime() - 5_000), realityCheckAt: new Date(now.getTime() - 2_000) },
        });
      }
      const expected = await db().session.findUniqueOrThrow({
        where: { id },
        select: {
          id: true,
          adminGatePassedAt: true,
          expiresAt: true,
          playStartedAt: true,
          playSeenAt: true,
          realityCheckAt: true,
          user: { select: sessionUserSelect },
        },
      });
      // Plus whether outcome notices wait for the player (none here), and whether they may play from where they live.
      expect(await findSession(hashOf(token), now, places)).toStrictEqual({
        ...expected,
        user: { ...expected.user, hasOutcomeNews: false, mayPlay: user === full },
      });
    }
  });

  it("finds nothing for an expired session or an unknown token", async () => {
    const user = await createTestUser();
    const token = randomBytes(32).toString("base64url");
    const now = new Date();
    await createSessionRow({ tokenHash: hashOf(token), userId: user.id, expiresAt: now });
    expect(await findSession(hashOf(token), now, places)).toBeUndefined();
    expect(await findSession(hashOf("unknown"), now, places)).toBeUndefined();
  });
});
