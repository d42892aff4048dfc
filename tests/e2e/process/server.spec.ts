import { existsSync } from "node:fs";
import { get } from "node:http";
import { connect, createServer } from "node:net";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { newDataDir, removeDataDirs, startServer, stopServer as stop, waitUntilReady, type ServerProcess } from "../../support/server-process";
import { scaled } from "../../support/timeouts";

test.afterAll(() => removeDataDirs());

test.describe.configure({ mode: "serial" });

test("serves health checks, request ids and a nonce'd Content Security Policy", async () => {
  const server = await startServer(newDataDir());
  try {
    await waitUntilReady(server);
    const health = await fetch(`http://localhost:${server.port}/healthz`);
    expect(await health.json()).toEqual({ status: "ok" });
    const ready = await fetch(`http://localhost:${server.port}/readyz`);
    expect(await ready.json()).toEqual({ status: "ready" });

    const page = await fetch(`http://localhost:${server.port}/`, { headers: { "X-Request-Id": "trace-123" } });
    expect(page.headers.get("x-request-id")).toBe("trace-123");
    const nonce = /'nonce-([^']+)'/.exec(page.headers.get("content-security-policy") ?? "")?.[1];
    expect(nonce).toBeTruthy();
    const html = await page.text();
    const scriptNonces = [...html.matchAll(/<script[^>]*nonce="([^"]+)"/g)].map((m) => m[1]);
    expect(scriptNonces.length).toBeGreaterThan(0);
    expect(new Set(scriptNonces)).toEqual(new Set([nonce]));
    // The embedded database without Stripe keys is a demo, and every page says so.
    expect(html).toContain('data-testid="demo-banner"');
    await expect.poll(() => server.output()).toContain('"msg":"request completed"');
  } finally {
    await stop(server);
  }
});

/**
 * A form post whose body is still arriving: `finish` sends the rest and returns the raw
 * answer once the server closes the connection.
 */
async function startSlowFormPost(port: number, { workers = 1 } = {}) {
  const body = "theme=dark&redirectTo=%2F";
  const socket = connect(port, "127.0.0.1");
  await new Promise((resolve) => socket.once("connect", resolve));
  let response = "";
  socket.on("data", (chunk) => (response += chunk));
  const closed = new Promise((resolve) => socket.once("close", resolve));
  socket.write(
    `POST /theme HTTP/1.1\r\nHost: localhost:${port}\r\nOrigin: http://localhost:${port}\r\n` +
      `Content-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 5)}`,
  );
  // A full round trip on another connection, opened after these bytes were sent, means
  // the server has read them: the form post is now a request in flight. A cluster deals
  // new connections to its workers in turn, so two rounds of them reach the post's worker.
  for (let i = 0; i < 2 * workers; i++) expect(await getOnNewConnection(port, "/healthz")).toBe(200);
  return {
    finish: async () => {
      // The rest of the body, without half-closing: a client's FIN seen while its answer is
      // pending makes Node end the socket (its HTTP server does not allow half-open
      // connections), which would test Node's timing rather than our shutdown.
      socket.write(body.slice(5));
      await closed;
      return response;
    },
  };
}

/** The demo player's session cookie (the server runs in demo mode). */
async function signInDemoPlayer(port: number): Promise<string> {
  const response = await fetch(`http://localhost:${port}/api/login`, {
    method: "POST",
    headers: { Origin: `http://localhost:${port}` },
    body: new URLSearchParams({ intent: "signin", email: "player@demo.test", password: "demo-player-pass" }),
    redirect: "manual",
  });
  expect(response.status).toBe(302);
  const cookie = response.headers
    .getSetCookie()
    .map((header) => header.split(";")[0])
    .join("; ");
  expect(cookie).not.toBe("");
  return cookie;
}

/**
 * A live event stream (/api/events), open once its first bytes arrived; `ended` settles
 * when it stops: true when the server ended it, false when the connection was cut.
 */
async function openEventStream(port: number, cookie: string) {
  return new Promise<{ ended: Promise<boolean> }>((resolve, reject) => {
    get({ host: "127.0.0.1", port, path: "/api/events", agent: false, headers: { Cookie: cookie } }, (response) => {
      expect(response.statusCode).toBe(200);
      const ended = new Promise<boolean>((done) => response.once("close", () => done(response.complete)));
      response.resume();
      response.once("data", () => resolve({ ended }));
    }).on("error", reject);
  });
}

/**
 * SIGTERM while a form post is in flight and a live event stream is open: the stream ends
 * at once, while the post is still in flight; the post gets its answer (the process that
 * has it says it is finishing requests in flight) and its connection closes without
 * waiting for the drain grace; the server exits 0 within 10 s, and the embedded database
 * is stopped.
 */
async function expectDrainedStop(server: ServerProcess, dataDir: string, { workers = 1, ctrlC = [] as number[] } = {}) {
  const stream = await openEventStream(server.port, await signInDemoPlayer(server.port));
  const post = await startSlowFormPost(server.port, { workers });
  const stopping = ctrlC.length > 0 ? interrupt(server, ctrlC) : stop(server);
  // Every process that answers requests has begun to drain (the one holding the post too).
  await expect.poll(() => server.output().split("shutting down: finishing requests in flight").length - 1).toBe(workers);
  expect(await stream.ended).toBe(true);
  expect(await post.finish()).toMatch(/^HTTP\/1\.1 302/);
  const { code, ms } = await stopping;
  expect(code, server.output()).toBe(0);
  expect(ms, server.output()).toBeLessThan(10_000);
  expect(server.output()).not.toContain("still open after the drain grace");
  expect(existsSync(path.join(dataDir, "postgres/data/postmaster.pid"))).toBe(false);
}

/**
 * SIGINT to the primary and to each of `workers`, as a terminal's Ctrl-C reaches every
 * process of its group: a worker leaves it to its primary, whose SIGTERM it then drains on
 * (once: a second signal would end it at once, with exit code 1).
 */
async function interrupt(server: ServerProcess, workers: number[]): Promise<{ code: number | null; ms: number }> {
  const started = Date.now();
  for (const pid of workers) process.kill(pid, "SIGINT");
  server.child.kill("SIGINT");
  const code = await server.exited;
  return { code, ms: Date.now() - started };
}

test("finishes a request in flight, exits within 10 s of SIGTERM, and restarts on the same data", async () => {
  const dataDir = newDataDir();
  const first = await startServer(dataDir);
  await waitUntilReady(first);
  expect(first.output()).toContain('"seeded":{"series":16,"demoUsers":2}');

  // A form post whose body is still arriving when the signal comes.
  await expectDrainedStop(first, dataDir);

  const second = await startServer(dataDir);
  try {
    await waitUntilReady(second);
    // The schedule and demo users were already there: nothing new to seed.
    expect(second.output()).toContain('"seeded":{"series":0,"demoUsers":0}');
  } finally {
    expect((await stop(second)).code).toBe(0);
  }
});

/** The pids of the processes that logged `msg`, in order. */
const pidsThatLogged = (output: string, msg: string) =>
  [...output.matchAll(new RegExp(`"pid":(\\d+)[^\\n]*"msg":"${msg}`, "g"))].map((match) => Number(match[1]));

/** A GET on a connection of its own: node:cluster deals connections, not requests, to workers. */
const getOnNewConnection = (port: number, path: string) =>
  new Promise<number>((resolve, reject) => {
    get({ host: "127.0.0.1", port, path, agent: false }, (response) => {
      response.resume();
      response.on("end", () => resolve(response.statusCode ?? 0));
    }).on("error", reject);
  });

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

test("WEB_CONCURRENCY workers answer on one port, the primary alone runs the timed jobs and the workers send mail, a dead worker is replaced, Ctrl-C stops them all", async () => {
  test.setTimeout(scaled(120_000));
  const dataDir = newDataDir();
  const server = await startServer(dataDir, { WEB_CONCURRENCY: "2" });
  const primary = server.child.pid!;
  await waitUntilReady(server);
  await expect.poll(() => pidsThatLogged(server.output(), "listening on").length).toBe(2);
  const workers = pidsThatLogged(server.output(), "listening on");
  expect(workers).not.toContain(primary);
  expect(pidsThatLogged(server.output(), "seeded the database")).toEqual([primary]);

  for (let i = 0; i < 8; i++) expect(await getOnNewConnection(server.port, "/rules")).toBe(200);
  await expect.poll(() => new Set(pidsThatLogged(server.output(), "request completed"))).toEqual(new Set(workers));
  // The scheduler opened the seeded series: in the primary, not in a worker.
  await expect.poll(() => pidsThatLogged(server.output(), "scheduler tick").length).toBeGreaterThan(0);
  expect(new Set(pidsThatLogged(server.output(), "scheduler tick"))).toEqual(new Set([primary]));
  // The outbox's mail goes out from a worker: the primary's event loop is the draws'.
  const reset = await fetch(`http://localhost:${server.port}/forgot-password`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: `http://localhost:${server.port}`, Accept: "application/json" },
    body: "email=player%40demo.test",
  });
  expect(reset.status).toBe(200);
  await expect.poll(() => pidsThatLogged(server.output(), "mail sent").length).toBeGreaterThan(0);
  expect(workers).toEqual(expect.arrayContaining(pidsThatLogged(server.output(), "mail sent")));

  process.kill(workers[0]!, "SIGKILL");
  await expect.poll(() => server.output()).toContain("a worker stopped; starting another");
  // It died young: its replacement starts after a 1 s pause, then boots.
  await expect.poll(() => pidsThatLogged(server.output(), "listening on").length, { timeout: scaled(30_000) }).toBe(3);
  const replacement = pidsThatLogged(server.output(), "listening on")[2]!;
  for (let i = 0; i < 8; i++) expect(await getOnNewConnection(server.port, "/rules")).toBe(200);

  // A request in flight on a worker is finished before that worker exits, the SIGINT of a
  // Ctrl-C reaching every process notwithstanding.
  await expectDrainedStop(server, dataDir, { workers: 2, ctrlC: [workers[1]!, replacement] });
  expect([workers[1]!, replacement].filter(isAlive)).toEqual([]);
});

test("a worker that cannot listen stops the cluster with exit code 1 and the database stopped", async () => {
  const taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, resolve));
  const address = taken.address();
  const port = typeof address === "object" && address ? address.port : 0;
  try {
    const dataDir = newDataDir();
    const server = await startServer(dataDir, { WEB_CONCURRENCY: "2", PORT: String(port), HOST: "0.0.0.0" });
    expect(await server.exited).toBe(1);
    expect(server.output()).toContain("a worker stopped before it was listening");
    expect(existsSync(path.join(dataDir, "postgres/data/postmaster.pid"))).toBe(false);
  } finally {
    taken.close();
  }
});

test("stops at start-up with one line naming a malformed variable", async () => {
  const server = await startServer(newDataDir(), { PORT: "not-a-port" });
  const code = await server.exited;
  expect(code).toBe(78);
  expect(server.output()).toBe('Invalid configuration: PORT expected a port number (got "not-a-port")\n');
});
