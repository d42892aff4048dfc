import http from "node:http";
import net, { type AddressInfo } from "node:net";
import { createGunzip, gunzipSync } from "node:zlib";
import type { ServerBuild } from "@remix-run/node";
import compression from "compression";
import express from "express";
import { afterAll, beforeAll, expect, it } from "vitest";
import { directResourceRoutes } from "./express-remix.server";

/** A loader whose JSON answer breaks while it is being read. */
const brokenAnswer = () =>
  new Response(
    new ReadableStream({
      pull(controller) {
        controller.error(new Error("the answer broke while it was read"));
      },
    }),
    { status: 201, headers: { "Content-Type": "application/json", "Set-Cookie": "session=should-not-leak; Path=/" } },
  );

/** A page handed over as React hands one over: many pieces of about 2 kB, all at once. */
const PIECES = 40;
const piece = (i: number) => `<section id="s${i}">${"<p>Raffle, pot and ticket count.</p>".repeat(56)}</section>`;
const page = () =>
  new Response(
    new ReadableStream({
      start(controller) {
        for (let i = 0; i < PIECES; i++) controller.enqueue(new TextEncoder().encode(piece(i)));
        controller.close();
      },
    }),
    { headers: { "Content-Type": "text/html; charset=utf-8" } },
  );

/** A page whose second part waits until the client has read the first. */
let firstPartRead: () => void = () => {};
const slowPage = () => {
  const readByClient = new Promise<void>((resolve) => (firstPartRead = resolve));
  return new Response(
    new ReadableStream({
      async start(controller) {
        controller.enqueue(new TextEncoder().encode(`<p>first part</p>${"<!-- padding -->".repeat(100)}`));
        await readByClient;
        controller.enqueue(new TextEncoder().encode("<p>second part</p>"));
        controller.close();
      },
    }),
    { headers: { "Content-Type": "text/html; charset=utf-8" } },
  );
};

/** An event stream that never ends by itself and hears only its body's cancel, not the request's signal. */
let streamCancelled: () => void = () => {};
const endlessStream = () =>
  new Response(
    new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode("retry: 5000\n\n"));
      },
      cancel() {
        streamCancelled();
      },
    }),
    { headers: { "Content-Type": "text/event-stream; charset=utf-8" } },
  );

const build = {
  routes: {
    "routes/stream": { id: "routes/stream", parentId: "root", path: "stream", module: { loader: endlessStream } },
    "routes/page": { id: "routes/page", parentId: "root", path: "page", module: { loader: page } },
    "routes/slow-page": { id: "routes/slow-page", parentId: "root", path: "slow-page", module: { loader: slowPage } },
    "routes/broken": { id: "routes/broken", parentId: "root", path: "broken", module: { loader: brokenAnswer } },
    "routes/fine": { id: "routes/fine", parentId: "root", path: "fine", module: { loader: () => Response.json({ ok: true }) } },
  },
} as unknown as ServerBuild;

let server: ReturnType<ReturnType<typeof express>["listen"]>;
let base = "";

beforeAll(async () => {
  const app = express();
  app.use(compression());
  app.use(directResourceRoutes({ build, routeIds: ["routes/broken", "routes/fine", "routes/page", "routes/slow-page", "routes/stream"], getLoadContext: () => ({ cspNonce: "", requestId: "test", clientIp: "127.0.0.1" }), fallback: (_req, res) => res.sendStatus(404) }));
  server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

it("answers a bare 500, with none of its headers, when a directly dispatched answer cannot be read", async () => {
  const response = await fetch(`${base}/broken`);
  expect(response.status).toBe(500);
  expect(response.headers.get("Set-Cookie")).toBeNull();
  expect(response.headers.get("Content-Type")).toMatch(/^text\/plain/);
  expect(await response.text()).toBe("Unexpected Server Error");
});

it("sends a readable answer whole, with its length", async () => {
  const response = await fetch(`${base}/fine`);
  expect(response.status).toBe(200);
  expect(response.headers.get("Content-Length")).toBe(String('{"ok":true}'.length));
  expect(await response.json()).toEqual({ ok: true });
});

/** The chunks of a chunked answer, as they came over the wire (one request, then the connection closes). */
async function rawChunks(path: string): Promise<Buffer[]> {
  const { port } = server.address() as AddressInfo;
  const socket = net.connect(port, "127.0.0.1");
  socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept-Encoding: gzip\r\nConnection: close\r\n\r\n`);
  const parts: Buffer[] = [];
  for await (const part of socket) parts.push(part as Buffer);
  const raw = Buffer.concat(parts);
  let at = raw.indexOf("\r\n\r\n") + 4;
  expect(raw.subarray(0, at).toString()).toMatch(/transfer-encoding: chunked/i);
  const chunks: Buffer[] = [];
  for (;;) {
    const lineEnd = raw.indexOf("\r\n", at);
    const size = parseInt(raw.subarray(at, lineEnd).toString(), 16);
    if (size === 0) return chunks;
    chunks.push(raw.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}

it("compresses a page handed over in many pieces at once as a whole, not a gzip block per piece", async () => {
  const chunks = await rawChunks("/page");
  // Flushed after every piece, the page went out as 40 blocks.
  expect(chunks.length).toBeLessThanOrEqual(3);
  expect(gunzipSync(Buffer.concat(chunks)).toString()).toBe(Array.from({ length: PIECES }, (_, i) => piece(i)).join(""));
});

it("still sends what a page has so far while it waits for more", async () => {
  const text = await new Promise<string>((resolve, reject) => {
    http.get(`${base}/slow-page`, { headers: { "Accept-Encoding": "gzip" } }, (res) => {
      expect(res.headers["content-encoding"]).toBe("gzip");
      let body = "";
      const gunzip = res.pipe(createGunzip());
      gunzip.on("data", (data: Buffer) => {
        body += data.toString();
        // The second part is only made once the first has reached the client: had the first
        // stayed in the compressor's buffer, this answer would never end.
        if (body.includes("first part")) firstPartRead();
      });
      gunzip.on("end", () => resolve(body));
      gunzip.on("error", reject);
    });
  });
  expect(text).toMatch(/first part.*second part/s);
});

it("cancels a streamed answer's body when its client goes away, so an event stream gives its place back at once", async () => {
  const cancelled = new Promise<void>((resolve) => (streamCancelled = resolve));
  await new Promise<void>((resolve, reject) => {
    const request = http.get(`${base}/stream`, (res) => {
      res.once("data", () => {
        request.destroy();
        resolve();
      });
    });
    request.on("error", () => {});
    request.setTimeout(5_000, () => reject(new Error("no first event")));
  });
  // Without the cancel this never settles: nothing else ends an endless body.
  await cancelled;
});
