import { expect, test } from "@playwright/test";
import { newDataDir, removeDataDirs, startServer, stopServer, waitUntilReady, type ServerProcess } from "../../support/server-process";

/**
 * Rate limits count per client address, and only the deploy's own proxy header names it
 * (CLIENT_IP_HEADER): a client that sends X-Forwarded-For, Forwarded, X-Real-IP or any
 * other header of its choosing cannot reset its limit. Sign-ups (2 per address per hour
 * here) are the limit under test.
 */
const SPOOFS: Record<string, string>[] = [
  { "X-Forwarded-For": "203.0.113.7" },
  { "X-Forwarded-For": "198.51.100.1, 203.0.113.8" },
  { Forwarded: "for=203.0.113.9" },
  { "X-Real-IP": "203.0.113.10" },
  { "X-Client-IP": "203.0.113.11", "True-Client-IP": "203.0.113.12", "CF-Connecting-IP": "203.0.113.13" },
];

test.describe.configure({ mode: "serial" });
test.afterAll(() => removeDataDirs());

async function withServer(env: Record<string, string>, run: (signUp: (headers?: Record<string, string>) => Promise<number>) => Promise<void>) {
  const server: ServerProcess = await startServer(newDataDir(), { SIGNUP_LIMIT_PER_HOUR: "2", SCHEDULER_ENABLED: "false", ...env });
  try {
    await waitUntilReady(server);
    const base = `http://localhost:${server.port}`;
    let n = 0;
    const signUp = async (headers: Record<string, string> = {}) => {
      n += 1;
      const response = await fetch(`${base}/api/login`, {
        method: "POST",
        redirect: "manual",
        headers: { Origin: base, "Content-Type": "application/x-www-form-urlencoded", ...headers },
        body: new URLSearchParams({
          intent: "signup",
          email: `ip-${n}@example.com`,
          password: "correct horse battery staple",
          dateOfBirth: "1990-01-01",
          country: "IE",
          acceptTerms: "on",
        }),
      });
      await response.body?.cancel();
      return response.status;
    };
    await run(signUp);
  } finally {
    await stopServer(server);
  }
}

test("without a proxy header, the socket's address counts and no client header resets it", async () => {
  await withServer({}, async (signUp) => {
    expect(await signUp()).toBe(302);
    expect(await signUp({ "X-Forwarded-For": "203.0.113.1" })).toBe(302);
    for (const headers of [{}, ...SPOOFS, { "Fly-Client-IP": "203.0.113.14" }]) expect(await signUp(headers), JSON.stringify(headers)).toBe(429);
  });
});

test("behind the deploy's proxy, its header counts: a spoofed X-Forwarded-For changes nothing", async () => {
  await withServer({ CLIENT_IP_HEADER: "fly-client-ip" }, async (signUp) => {
    const proxy = { "Fly-Client-IP": "192.0.2.10" };
    expect(await signUp(proxy)).toBe(302);
    expect(await signUp({ ...proxy, "X-Forwarded-For": "203.0.113.1" })).toBe(302);
    for (const spoof of SPOOFS) expect(await signUp({ ...proxy, ...spoof }), JSON.stringify(spoof)).toBe(429);
    // Another client behind the same proxy has a limit of its own.
    expect(await signUp({ "Fly-Client-IP": "192.0.2.11", "X-Forwarded-For": "192.0.2.10" })).toBe(302);
  });
});
