import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { startEmbeddedPostgres } from "../../../server/embedded-postgres";
import { runningDatabaseUrl } from "../../support/database-dump";
import { newDataDir, removeDataDirs, signUpOn, startServer, stopServer, waitUntilReady, type ServerProcess } from "../../support/server-process";

const PASSWORD = "correct horse battery staple";
const cookiesOf = (response: Response) =>
  response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");

// Generous bounds for a loaded machine: each attack takes a few seconds when it is not.
test.describe.configure({ mode: "serial", timeout: 60_000 });

test.afterAll(() => removeDataDirs());

/**
 * Issue 31's attacks on the site's controls (items 6, 8 and 9; ADR 054), on servers of their
 * own: A on its embedded database, and B, a shared demo (DEMO_MODE=true) on A's database by
 * DATABASE_URL. The last test stops that database.
 */
test.describe("issue 31: controls that hold", () => {
  let a: ServerProcess;
  let b: ServerProcess;
  let aDir: string;
  let bDir: string;
  const at = (server: ServerProcess) => `http://localhost:${server.port}`;
  const fetchAt = (server: ServerProcess, path: string, init: RequestInit & { cookie?: string } = {}) =>
    fetch(`${at(server)}${path}`, {
      ...init,
      redirect: "manual",
      headers: { Origin: at(server), Accept: "application/json", ...(init.cookie ? { Cookie: init.cookie } : {}), ...(init.headers as Record<string, string>) },
    });

  test.beforeAll(async () => {
    test.setTimeout(240_000);
    aDir = newDataDir();
    bDir = newDataDir();
    a = await startServer(aDir, { SCHEDULER_ENABLED: "false" });
    await waitUntilReady(a, 110_000);
    b = await startServer(bDir, { SCHEDULER_ENABLED: "false", DEMO_MODE: "true", DATABASE_URL: await runningDatabaseUrl(aDir) });
    await waitUntilReady(b, 110_000);
  });

  test.afterAll(async () => {
    await stopServer(b);
    await stopServer(a);
  });

  test("item 6. 60 sign-ins from one known device hold 10 sessions and 8 streams; a new player still gets a stream", async () => {
    test.setTimeout(180_000);
    const email = "hoarder@example.com";
    const device = (await signUpOn(at(a), email))
      .split("; ")
      .filter((c) => c.startsWith("__device="))
      .join("; ");
    const cookies: string[] = [];
    for (let batch = 0; batch < 6; batch++) {
      const answers = await Promise.all(
        Array.from({ length: 10 }, () =>
          fetchAt(a, "/api/login", {
            method: "POST",
            cookie: device,
            headers: { "Content-Type": "application/x-www-form-urlencoded" },
            body: new URLSearchParams({ intent: "signin", email, password: PASSWORD }).toString(),
          }),
        ),
      );
      expect(answers.map((r) => r.status)).toEqual(Array(10).fill(302));
      cookies.push(...answers.map(cookiesOf));
    }
    const live = (await Promise.all(cookies.map((cookie) => fetchAt(a, "/api/auth/user", { cookie })))).map((r) => r.status);
    expect(live.filter((s) => s === 200)).toHaveLength(10);
    expect(live.filter((s) => s === 401)).toHaveLength(50);

    const controller = new AbortController();
    const streams = await Promise.all(
      cookies
        .slice(-10)
        .flatMap((cookie) => Array.from({ length: 4 }, () => fetch(`${at(a)}/api/events`, { headers: { Cookie: cookie }, signal: controller.signal }))),
    );
    const statuses = streams.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(8);
    expect(statuses.filter((s) => s === 429)).toHaveLength(32);
    const newcomer = await fetch(`${at(a)}/api/events`, { headers: { Cookie: await signUpOn(at(a), "newcomer@example.com") }, signal: controller.signal });
    expect(newcomer.status).toBe(200);
    controller.abort();
  });

  test("item 9. on a shared demo the mailbox shows nothing to a stranger, and a player only their own mail", async () => {
    const mail = path.join(bDir, "mail");
    mkdirSync(mail, { recursive: true });
    const eml = (to: string, subject: string) =>
      [
        `From: Raffle Rush <noreply@demo.test>`,
        `To: ${to}`,
        `Subject: ${subject}`,
        `Date: ${new Date().toUTCString()}`,
        "",
        "http://localhost/reset-password?token=stolen",
        "",
      ].join("\r\n");
    writeFileSync(path.join(mail, `${Date.now()}-reset-demo.eml`), eml("player@demo.test", "Reset your password"));
    writeFileSync(path.join(mail, `${Date.now() + 1}-mine.eml`), eml("reader@example.com", "Welcome, reader"));
    for (const url of ["/dev/mail", `/dev/mail/${Date.now()}-reset-demo`]) {
      const stranger = await fetchAt(b, url, { headers: { Accept: "text/html" } });
      expect(stranger.status, url).toBe(302);
      expect(stranger.headers.get("Location")).toMatch(/^\/api\/login/);
      expect(await stranger.text()).not.toContain("reset-password");
    }
    const reader = await signUpOn(at(b), "reader@example.com");
    const page = await (await fetchAt(b, "/dev/mail", { cookie: reader, headers: { Accept: "text/html" } })).text();
    expect(page).toContain("Welcome, reader");
    expect(page).not.toContain("Reset your password");
    // A, on its own embedded database, is the one person's local demo: its mailbox stays open.
    expect((await fetchAt(a, "/dev/mail", { headers: { Accept: "text/html" } })).status).toBe(200);
  });

  test("item 8. with the database stopped under load, every answer is a 503 with Retry-After, never a 500", async () => {
    test.setTimeout(120_000);
    const cookie = await signUpOn(at(b), "outage@example.com");
    const form = (body: Record<string, string>) => ({
      method: "POST",
      cookie,
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(body).toString(),
    });
    const json = (body: unknown) => ({ method: "POST", cookie, headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    const requests: [string, RequestInit & { cookie?: string }][] = [
      ["/checkout?package=package_4", form({ intent: "demo-pay", cardNumber: "4242 4242 4242 4242", expiry: "12/34", cvc: "123" })],
      ["/api/withdraw", json({ amount: 10, method: "venmo", accountInfo: "lucky-lou" })],
      ["/api/daily-spin", json({})],
      ["/history", { cookie, headers: { Accept: "text/html" } }],
      ["/api/withdrawals", { cookie }],
    ];
    const answers: { path: string; status: number; retryAfter: string | null; type: string; body: string; afterStop: boolean }[] = [];
    let stopped = false;
    let done = false;
    const load = async () => {
      while (!done) {
        for (const [path, init] of requests) {
          const afterStop = stopped;
          const response = await fetchAt(b, path, init).catch(() => undefined);
          // The server must outlive its database: a refused connection is a failure too.
          if (!response) {
            answers.push({ path, status: 0, retryAfter: null, type: "", body: b.output().slice(-2_000), afterStop });
            await new Promise((resolve) => setTimeout(resolve, 100));
            continue;
          }
          answers.push({
            path,
            status: response.status,
            retryAfter: response.headers.get("Retry-After"),
            type: response.headers.get("Content-Type") ?? "",
            body: await response.text(),
            afterStop,
          });
        }
      }
    };
    const workers = [load(), load(), load()];
    await expect.poll(() => answers.length).toBeGreaterThan(15);
    // Stop A's PostgreSQL (fast shutdown), which B reaches by DATABASE_URL.
    const cluster = (await startEmbeddedPostgres({ dir: path.join(aDir, "postgres") })).dataDir;
    const pid = Number(readFileSync(path.join(cluster, "postmaster.pid"), "utf8").split("\n")[0]);
    process.kill(pid, "SIGINT");
    stopped = true;
    await expect.poll(() => answers.filter((x) => x.afterStop).length, { timeout: 60_000 }).toBeGreaterThan(40);
    done = true;
    await Promise.all(workers);

    const failed = answers.filter((x) => x.status === 0 || (x.status >= 500 && x.status !== 503));
    expect(failed.map((x) => `${x.path} ${x.status}${x.status === 0 ? ` ${x.body}` : ""}`).slice(0, 3)).toEqual([]);
    const during = answers.filter((x) => x.afterStop).slice(-25);
    for (const answer of during) {
      expect(answer.status, answer.path).toBe(503);
      expect(Number(answer.retryAfter), answer.path).toBeGreaterThan(0);
      if (answer.path.startsWith("/api/")) expect(JSON.parse(answer.body)).toEqual({ message: expect.stringMatching(/briefly unavailable/) });
      else if (answer.path === "/history") expect(answer.body).toContain("briefly unavailable");
    }
  });
});
