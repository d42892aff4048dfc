import type { ServerBuild } from "@remix-run/node";
import { describe, expect, test } from "vitest";
import { routeLabeller } from "./http-metrics";
import { bearerMatches } from "../app/infra/metrics.server";

const route = (id: string, path: string | undefined, parentId: string | undefined, index?: boolean) => ({ id, path, parentId, index, module: {} });
const build = {
  routes: {
    root: route("root", "", undefined),
    "routes/_index": route("routes/_index", undefined, "root", true),
    "routes/api.raffles.$id.enter": route("routes/api.raffles.$id.enter", "api/raffles/:id/enter", "root"),
    "routes/$": route("routes/$", "*", "root"),
  },
} as unknown as ServerBuild;

describe("routeLabeller", () => {
  const label = routeLabeller(build);
  test("labels a request by its route pattern, never its ids", () => {
    expect(label("/api/raffles/6f1c1b7e-0000-4000-8000-000000000000/enter")).toBe("/api/raffles/:id/enter");
    expect(label("/")).toBe("/");
    // Labelled again from the labeller's memory, the same.
    expect(label("/api/raffles/6f1c1b7e-0000-4000-8000-000000000000/enter")).toBe("/api/raffles/:id/enter");
    expect(label("/")).toBe("/");
    expect(label("/api/raffles/00000000-0000-4000-8000-000000000001/enter")).toBe("/api/raffles/:id/enter");
  });
  test("keeps unknown paths, assets and its own paths to a few labels", () => {
    expect(label("/wp-admin/setup.php")).toBe("/*");
    expect(label("/assets/entry.client-abc123.js")).toBe("/assets/*");
    expect(label("/metrics")).toBe("/metrics");
  });
});

describe("bearerMatches", () => {
  const token = "a-metrics-token-of-24-chars";
  test("takes only the exact bearer token", () => {
    expect(bearerMatches(`Bearer ${token}`, token)).toBe(true);
    expect(bearerMatches(`bearer ${token}`, token)).toBe(true);
    expect(bearerMatches(undefined, token)).toBe(false);
    expect(bearerMatches(token, token)).toBe(false);
    expect(bearerMatches(`Bearer ${token}x`, token)).toBe(false);
    expect(bearerMatches("Bearer ", token)).toBe(false);
  });
});
