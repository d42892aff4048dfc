import type { AddressInfo } from "node:net";
import type { ServerBuild } from "@remix-run/node";
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

const build = {
  routes: {
    "routes/broken": { id: "routes/broken", parentId: "root", path: "broken", module: { loader: brokenAnswer } },
    "routes/fine": { id: "routes/fine", parentId: "root", path: "fine", module: { loader: () => Response.json({ ok: true }) } },
  },
} as unknown as ServerBuild;

let server: ReturnType<ReturnType<typeof express>["listen"]>;
let base = "";

beforeAll(async () => {
  const app = express();
  app.use(directResourceRoutes({ build, routeIds: ["routes/broken", "routes/fine"], getLoadContext: () => ({ cspNonce: "", requestId: "test", clientIp: "127.0.0.1" }), fallback: (_req, res) => res.sendStatus(404) }));
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
