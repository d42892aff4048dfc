import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ServerBuild } from "@remix-run/node";
import { expect, test } from "@playwright/test";
import { ledgerAt, runningDatabaseUrl } from "../../support/database-dump";
import { newDataDir, removeDataDirs, startServer, stopServer, waitUntilReady, type ServerProcess, signUpOn } from "../../support/server-process";
import { scaled } from "../../support/timeouts";

/**
 * 10 MB bodies against a real server: 413 for every route that acts and every /api
 * route, whether the body announces its length or arrives chunked (no Content-Length),
 * in any content type; never a 5xx, and the ledger untouched. Bodies under the limit
 * still reach the routes, chunked or not.
 */
const TEN_MB = 10 * 1024 * 1024;
const CONTENT_TYPES = ["application/json", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "text/plain", "application/octet-stream"];
let server: ServerProcess;
let dataDir: string;
let base: string;
let cookie: string;

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  dataDir = newDataDir();
  // No scheduler: rounds opening in the background would add accounts to the ledger.
  server = await startServer(dataDir, { SCHEDULER_ENABLED: "false" });
  await waitUntilReady(server);
  base = `http://localhost:${server.port}`;
  cookie = await signUpOn(base, "big-bodies@example.com");
});

test.afterAll(async () => {
  await stopServer(server);
  removeDataDirs();
});

/** Every route that acts, and every /api route, with its parameters filled in. */
async function targets(): Promise<string[]> {
  const build = (await import(pathToFileURL(path.resolve("build/server/index.js")).href)) as ServerBuild;
  return Object.values(build.routes)
    .filter((route) => route.id !== "root" && (route.module.action || route.path?.startsWith("api/")))
    .map((route) => `/${(route.path ?? "").replace(/^\//, "")}`.replace(":id", "00000000-0000-4000-8000-000000000000").replace("*", "no/such/page"));
}

/** A body of `bytes` bytes sent in 64 KB chunks, without a Content-Length. */
function chunked(bytes: number): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      const size = Math.min(65_536, bytes - sent);
      if (size <= 0) return controller.close();
      controller.enqueue(new Uint8Array(size).fill(0x61));
      sent += size;
    },
  });
}

function post(pathname: string, body: BodyInit, contentType: string): Promise<Response> {
  const stream = body instanceof ReadableStream;
  return fetch(`${base}${pathname}`, {
    method: "POST",
    redirect: "manual",
    headers: { Origin: base, Cookie: cookie, "Content-Type": contentType, Accept: "application/json" },
    body,
    ...(stream ? { duplex: "half" } : {}),
  } as RequestInit);
}

test("10 MB bodies are 413 on every route, announced or chunked, and move no coin", async () => {
  // Two 10 MB uploads per route, over a hundred in all: more than a page's 30 s on a busy machine.
  test.setTimeout(scaled(120_000));
  const database = await runningDatabaseUrl(dataDir);
  const before = await ledgerAt(database);
  const paths = await targets();
  expect(paths).toContain("/api/stripe/webhook");
  expect(paths).toContain("/withdraw");
  const big = Buffer.alloc(TEN_MB, 0x61);
  const cases = paths.flatMap((pathname, i) => {
    const type = CONTENT_TYPES[i % CONTENT_TYPES.length]!;
    return [
      { label: `announced ${type} ${pathname}`, send: () => post(pathname, big, type) },
      { label: `chunked ${type} ${pathname}`, send: () => post(pathname, chunked(TEN_MB), type) },
    ];
  });
  // Four uploads at a time.
  for (let i = 0; i < cases.length; i += 4) {
    await Promise.all(
      cases.slice(i, i + 4).map(async ({ label, send }) => {
        const response = await send();
        expect(response.status, label).toBe(413);
        expect(await response.json(), label).toEqual({ message: expect.stringContaining("too large") });
      }),
    );
  }
  expect(await ledgerAt(database)).toEqual(before);
});

test("one byte over the limit is refused; bodies within it reach the route, chunked or not", async () => {
  const limit = 1024 * 1024;
  expect((await post("/api/auth/create-username", chunked(limit + 1), "application/json")).status).toBe(413);
  // A username far too long: the route read the whole body and said what was wrong.
  const json = JSON.stringify({ username: "x".repeat(limit - 20) });
  const announced = await post("/api/auth/create-username", json, "application/json");
  expect(announced.status).toBe(400);
  expect(await announced.json()).toEqual({ message: expect.stringContaining("username") });
  const streamed = new Blob([json]).stream();
  const viaChunks = await post("/api/auth/create-username", streamed, "application/json");
  expect(viaChunks.status).toBe(400);
  expect(await viaChunks.json()).toEqual({ message: expect.stringContaining("username") });
  // A chunked form post is handled as usual.
  const theme = await post("/theme", new Blob(["theme=dark&redirectTo=%2Frules"]).stream(), "application/x-www-form-urlencoded");
  expect(theme.status).toBe(302);
  expect(theme.headers.get("Location")).toBe("/rules");
  expect(theme.headers.getSetCookie().some((c) => c.startsWith("theme="))).toBe(true);
});
