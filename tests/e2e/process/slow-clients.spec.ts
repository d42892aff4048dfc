import { connect, type Socket } from "node:net";
import { request as httpRequest } from "node:http";
import { expect, test } from "@playwright/test";
import { newDataDir, removeDataDirs, startServer, stopServer, waitUntilReady, type ServerProcess, signUpOn } from "../../support/server-process";

/**
 * Slow clients against a real server (ADR 023), with the request timeout shortened to
 * one second (REQUEST_TIMEOUT_SECONDS) so that the suite runs fast. A body sent a byte at
 * a time, headers that never end and a connection that sends nothing are each answered
 * 408 or closed soon after the timeout, while the client would have gone on for 20
 * seconds; an event stream, whose request is complete, stays open past it.
 */
const TIMEOUT_SECONDS = 1;
/** The slow client keeps trickling for this long unless the server cuts it off. */
const CLIENT_WOULD_GO_ON_MS = 20_000;
let server: ServerProcess;
let base: string;
let cookie: string;

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  server = await startServer(newDataDir(), { SCHEDULER_ENABLED: "false", REQUEST_TIMEOUT_SECONDS: String(TIMEOUT_SECONDS) });
  await waitUntilReady(server);
  base = `http://localhost:${server.port}`;
  cookie = await signUpOn(base, "slow@example.com");
});

test.afterAll(async () => {
  await stopServer(server);
  removeDataDirs();
});

/**
 * Opens a raw connection, writes `head`, then one byte of `trickle` every 100 ms until the
 * server closes the connection; resolves with what the server wrote and how long it held on.
 */
function slowClient(head: string, trickle: string): Promise<{ answer: string; ms: number; bytesSent: number }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket: Socket = connect(server.port, "127.0.0.1");
    let answer = "";
    let sent = 0;
    let ticker: NodeJS.Timeout | undefined;
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => (answer += chunk));
    socket.on("error", () => {}); // A reset is a close too.
    socket.on("close", () => {
      clearInterval(ticker);
      resolve({ answer, ms: Date.now() - started, bytesSent: sent });
    });
    socket.on("connect", () => {
      if (head) socket.write(head);
      ticker = setInterval(() => {
        if (Date.now() - started > CLIENT_WOULD_GO_ON_MS) {
          clearInterval(ticker);
          socket.destroy();
          reject(new Error("the server never closed the slow connection"));
          return;
        }
        if (trickle && !socket.destroyed) socket.write(trickle[sent++ % trickle.length]!);
      }, 100);
    });
  });
}

test("a body sent a byte at a time is cut off with 408 soon after the request timeout", async () => {
  const head = `POST /api/login HTTP/1.1\r\nHost: localhost:${server.port}\r\nOrigin: ${base}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 10000\r\n\r\n`;
  const { answer, ms } = await slowClient(head, "intent=signin&email=a%40b.c&");
  expect(answer).toMatch(/^HTTP\/1\.1 408 /);
  expect(ms).toBeGreaterThanOrEqual(TIMEOUT_SECONDS * 1000);
  expect(ms).toBeLessThan(10_000);
});

test("a chunked body that never ends is cut off the same way", async () => {
  const head = `POST /api/login HTTP/1.1\r\nHost: localhost:${server.port}\r\nOrigin: ${base}\r\nContent-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n\r\n`;
  const { answer, ms } = await slowClient(head, "1\r\na\r\n");
  expect(answer).toMatch(/^HTTP\/1\.1 408 /);
  expect(ms).toBeLessThan(10_000);
});

test("headers sent a byte at a time, and a connection that sends nothing, are closed", async () => {
  const headers = await slowClient(`GET / HTTP/1.1\r\nHost: localhost\r\n`, "X-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n");
  expect(headers.answer).toMatch(/^HTTP\/1\.1 408 /);
  expect(headers.ms).toBeLessThan(10_000);
  const silent = await slowClient("", "");
  expect(silent.ms).toBeLessThan(10_000);
});

test("an answer that takes long is not cut off: an event stream outlives the request timeout", async () => {
  const stream = await fetch(`${base}/api/events`, { headers: { Cookie: cookie } });
  expect(stream.status).toBe(200);
  const reader = stream.body!.getReader();
  expect(new TextDecoder().decode((await reader.read()).value)).toContain("retry:");
  // A slow client cut off meanwhile proves the timeout has passed for the stream too.
  const slow = await slowClient(`POST /api/login HTTP/1.1\r\nHost: localhost\r\nOrigin: ${base}\r\nContent-Length: 100\r\n\r\n`, "a");
  expect(slow.ms).toBeGreaterThanOrEqual(TIMEOUT_SECONDS * 1000);
  const ping = await fetch(`${base}/healthz`);
  expect(ping.status).toBe(200);
  // Still open: cancelling it now is our doing, not the server's.
  let ended = false;
  void reader.closed.then(
    () => (ended = true),
    () => (ended = true),
  );
  await new Promise((resolve) => setImmediate(resolve));
  expect(ended).toBe(false);
  await reader.cancel();
});

test("kept-alive connections announce the idle timeout the proxy in front must stay under", async () => {
  const keepAlive = await new Promise<string | undefined>((resolve, reject) => {
    const req = httpRequest(`${base}/healthz`, { headers: { Connection: "keep-alive" } }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.headers["keep-alive"] as string | undefined));
    });
    req.on("error", reject);
    req.end();
  });
  expect(keepAlive).toBe("timeout=75");
});
