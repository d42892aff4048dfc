import { describe, expect, it } from "vitest";
import { STREAMS_PER_ACCOUNT, streamsPerAddress, subscribe, TooManyStreams } from "~/infra/events.server";
import { db } from "~/models/db.server";
import { SESSIONS_PER_ACCOUNT } from "~/models/accounts/session.server";
import { call, sessionCookie } from "../support/app";
import { createTestUser } from "../support/factories";

/**
 * One account cannot take every live stream (issue 31, item 6; ADR 054): signing in again
 * from the account's own known device is not rate limited, so sessions and streams are
 * capped per account, and an address holds only a small share of the process's streams.
 */
const PASSWORD = "correct horse battery staple";
const cookiesFrom = (response: Response) =>
  response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");

async function signUp(email: string): Promise<string> {
  const response = await call("/api/login", {
    method: "POST",
    ip: "198.51.100.60",
    form: { intent: "signup", email, password: PASSWORD, dateOfBirth: "1990-05-17", country: "GB", acceptTerms: "on" },
  });
  expect(response.status).toBe(302);
  return cookiesFrom(response);
}

describe("an account's sessions and streams", () => {
  it("keeps 10 sessions of 500 sign-ins from one known device, gives them 8 streams, and a new player still gets one", { timeout: 300_000 }, async () => {
    const email = "hoarder@example.com";
    const device = (await signUp(email))
      .split("; ")
      .filter((c) => c.startsWith("__device="))
      .join("; ");
    expect(device).toMatch(/^__device=/);
    const cookies: string[] = [];
    // 500 sign-ins, 10 at a time: none is refused (a known device's successful sign-ins are not counted).
    for (let batch = 0; batch < 50; batch++) {
      const answers = await Promise.all(
        Array.from({ length: 10 }, () => call("/api/login", { method: "POST", cookie: device, form: { intent: "signin", email, password: PASSWORD } })),
      );
      expect(answers.map((a) => a.status)).toEqual(Array(10).fill(302));
      cookies.push(...answers.map(cookiesFrom));
    }
    const user = await db().user.findUniqueOrThrow({ where: { email }, select: { id: true } });
    expect(await db().session.count({ where: { userId: user.id } })).toBe(SESSIONS_PER_ACCOUNT);
    // The first sessions were ended by the later ones.
    expect((await call("/api/auth/user", { cookie: cookies[0] })).status).toBe(401);
    expect((await call("/api/auth/user", { cookie: cookies.at(-1) })).status).toBe(200);

    // Every session tries 4 streams (its own cap): the account holds 8 in all.
    const streams = await Promise.all(
      cookies.slice(-SESSIONS_PER_ACCOUNT).flatMap((cookie) => Array.from({ length: 4 }, () => call("/api/events", { cookie }))),
    );
    const open = streams.filter((r) => r.status === 200);
    expect(open).toHaveLength(STREAMS_PER_ACCOUNT);
    const refused = streams.filter((r) => r.status === 429);
    expect(refused).toHaveLength(SESSIONS_PER_ACCOUNT * 4 - STREAMS_PER_ACCOUNT);
    expect(Number(refused[0]!.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(await refused[0]!.json()).toEqual({ message: expect.stringMatching(/for this account/) });

    // A new player, from the same address, still gets a stream.
    const newcomer = await call("/api/events", { cookie: await sessionCookie((await createTestUser()).id) });
    expect(newcomer.status).toBe(200);
    await Promise.all([newcomer, ...open].map((r) => r.body!.cancel()));
  });

  it("lets no address hold more than its share of the process's streams, whatever its accounts", async () => {
    const maxStreams = 400;
    const share = streamsPerAddress(maxStreams);
    expect(share).toBeLessThan(maxStreams / 10);
    const attempts = await Promise.allSettled(
      Array.from({ length: 10 * STREAMS_PER_ACCOUNT }, (_, i) =>
        subscribe(
          () => {},
          () => {},
          { session: `s${i}`, account: `a${i % 10}`, address: "203.0.113.9", maxStreams },
        ),
      ),
    );
    const opened = attempts.filter((r) => r.status === "fulfilled");
    expect(opened).toHaveLength(share);
    for (const refused of attempts.filter((r) => r.status === "rejected")) {
      expect(refused.reason).toBeInstanceOf(TooManyStreams);
      expect((refused.reason as TooManyStreams).scope).toBe("address");
    }
    // Another address is not held back.
    const other = await subscribe(
      () => {},
      () => {},
      { session: "elsewhere", account: "b", address: "198.51.100.9", maxStreams },
    );
    other();
    for (const each of opened) each.value();
  });
});
