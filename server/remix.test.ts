import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import net, { type AddressInfo } from "node:net";
import { createGunzip, gunzipSync } from "node:zlib";
import { data, redirect, writeReadableStreamToWritable, type ActionFunctionArgs, type ServerBuild } from "@remix-run/node";
import compression from "compression";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { flushOncePerBurst, publicFilesOf, withAfterWrite } from "./remix";

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

describe("flushOncePerBurst, with compression and the stock handler's way of writing", () => {
  let server: http.Server;
  let base = "";

  beforeAll(async () => {
    const app = express();
    app.use(compression());
    app.use(flushOncePerBurst);
    // As `@remix-run/express` sends a page: the status and headers, then each chunk written and flushed.
    const send =
      (response: Response): express.RequestHandler =>
      (_req, res, next) => {
        res.status(response.status).set(Object.fromEntries(response.headers));
        writeReadableStreamToWritable(response.body!, res).catch(next);
      };
    app.get("/page", (req, res, next) => send(page())(req, res, next));
    app.get("/slow-page", (req, res, next) => send(slowPage())(req, res, next));
    server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

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
    // Flushed after every piece (the stock handler alone), the page went out as 40 blocks.
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
});

describe("withAfterWrite", () => {
  const outcomes: Record<string, () => unknown> = {
    json: () => Response.json({ ok: true }),
    refused: () => Response.json({ message: "no" }, { status: 400 }),
    naked: () => ({ ok: true }),
    refusedData: () => data({ message: "no" }, { status: 422 }),
    redirected: () => {
      throw redirect("/somewhere");
    },
    notFound: () => {
      throw new Response("Not Found", { status: 404 });
    },
    broken: () => {
      throw new Error("a bug");
    },
  };
  const build = {
    routes: Object.fromEntries([
      ...Object.entries(outcomes).map(([id, action]) => [id, { id, parentId: "root", path: id, module: { action } }]),
      ["entry", { id: "entry", parentId: "root", path: "entry", module: { action: () => ({ ok: true }), handle: { keepsSession: true } } }],
      ["page", { id: "page", parentId: "root", path: "page", module: { loader: () => null } }],
    ]),
  } as unknown as ServerBuild;

  it("tells the hook after every action, with the status the answer will have (none when it failed) and whether its route keeps the session, before the answer is made", async () => {
    const heard: [string, number | undefined, boolean][] = [];
    const wrapped = withAfterWrite(build, async (request, status, { keepsSession }) => {
      heard.push([new URL(request.url).pathname, status, keepsSession]);
    });
    for (const id of [...Object.keys(outcomes), "entry"]) {
      const request = new Request(`http://localhost/${id}`, { method: "POST" });
      const action = wrapped.routes[id]!.module.action!;
      await Promise.resolve(action({ request, params: {}, context: {} } as ActionFunctionArgs)).catch(() => {});
    }
    expect(heard).toEqual([
      ["/json", 200, false],
      ["/refused", 400, false],
      ["/naked", 200, false],
      ["/refusedData", 422, false],
      ["/redirected", 302, false],
      ["/notFound", 404, false],
      ["/broken", undefined, false],
      // A route that says its writes leave the session alone (an entry's).
      ["/entry", 200, true],
    ]);
    // What the action answered or threw is unchanged; routes without an action are left alone.
    const request = new Request("http://localhost/redirected", { method: "POST" });
    await expect(Promise.resolve(wrapped.routes.redirected!.module.action!({ request, params: {}, context: {} } as ActionFunctionArgs))).rejects.toMatchObject({
      status: 302,
    });
    expect(wrapped.routes.page).toBe(build.routes.page);
  });
});

describe("publicFilesOf", () => {
  let dir: string;
  let base: string;
  let server: http.Server;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "public-files-"));
    mkdirSync(path.join(dir, "icons"));
    writeFileSync(path.join(dir, "favicon.svg"), "<svg/>");
    writeFileSync(path.join(dir, "icons", "coin.svg"), "<svg>coin</svg>");
    const app = express();
    app.use(publicFilesOf(dir, express.static(dir)));
    app.use((req, res) => res.type("text/plain").send(`page ${req.path}`));
    // A file that appears after start (or a page's name that matches one) is never served from disk.
    writeFileSync(path.join(dir, "quick.data"), "from disk");
    server = app.listen(0);
    await new Promise((resolve) => server.once("listening", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("serves the files named at start and passes every other path on without looking on disk", async () => {
    const text = async (pathname: string) => (await fetch(`${base}${pathname}`)).text();
    expect(await text("/favicon.svg")).toBe("<svg/>");
    expect(await text("/icons/coin.svg")).toBe("<svg>coin</svg>");
    expect(await text("/quick.data")).toBe("page /quick.data");
    expect(await text("/raffles/1/enter.data")).toBe("page /raffles/1/enter.data");
    expect(await text("/")).toBe("page /");
  });
});
