import { createRequire } from "node:module";
import type { AgnosticRouteObject, matchRoutes as MatchRoutes } from "@remix-run/router";
import { describe, expect, it } from "vitest";

// The router exactly as the server runtime loads it (its CommonJS build, patched: ADR 044).
const { matchRoutes } = createRequire(import.meta.url)("@remix-run/router") as { matchRoutes: typeof MatchRoutes };

/** A route tree like the app's: a layout with children, index routes, a parameter, a splat. */
function routes(): AgnosticRouteObject[] {
  return [
    {
      id: "root",
      path: "",
      children: [
        { id: "home", index: true },
        {
          id: "admin",
          path: "admin",
          children: [
            { id: "admin.index", index: true },
            { id: "admin.users", path: "users" },
          ],
        },
        { id: "raffle.enter", path: "raffles/:id/enter" },
        { id: "api.raffles", path: "api/raffles" },
        { id: "Rules", path: "rules", caseSensitive: true },
        { id: "splat", path: "*" },
      ],
    },
  ];
}

const ids = (tree: AgnosticRouteObject[], path: string) => matchRoutes(tree, path)?.map((m) => m.route.id);

describe("route matching on the server (patched @remix-run/router, ADR 044)", () => {
  it("matches as before: index, nested, parameters, case sensitivity and the splat", () => {
    const tree = routes();
    for (let round = 0; round < 2; round++) {
      expect(ids(tree, "/")).toEqual(["root", "home"]);
      expect(ids(tree, "/admin")).toEqual(["root", "admin", "admin.index"]);
      expect(ids(tree, "/admin/users/")).toEqual(["root", "admin", "admin.users"]);
      expect(matchRoutes(tree, "/raffles/r-1/enter")?.at(-1)?.params).toEqual({ id: "r-1" });
      expect(ids(tree, "/API/raffles")).toEqual(["root", "api.raffles"]);
      expect(ids(tree, "/rules")).toEqual(["root", "Rules"]);
      expect(ids(tree, "/RULES")).toEqual(["root", "splat"]);
      expect(matchRoutes(tree, "/no/such/page")?.at(-1)?.params).toEqual({ "*": "no/such/page" });
    }
    // Another routes array is matched on its own, not from the first one's branches.
    expect(ids([{ id: "only", path: "only" }], "/admin")).toBeUndefined();
  });

  it("flattens and ranks a routes array once, not at every request", () => {
    let pathReads = 0;
    const counted = (route: AgnosticRouteObject): AgnosticRouteObject => {
      const { path, children, ...rest } = route;
      const copy = { ...rest, children: children?.map(counted) } as AgnosticRouteObject;
      Object.defineProperty(copy, "path", { enumerable: true, get: () => (pathReads++, path) });
      return copy;
    };
    const tree = routes().map(counted);
    expect(ids(tree, "/admin/users")).toEqual(["root", "admin", "admin.users"]);
    expect(pathReads).toBeGreaterThan(0);
    pathReads = 0;
    expect(ids(tree, "/raffles/r-2/enter")).toEqual(["root", "raffle.enter"]);
    expect(ids(tree, "/")).toEqual(["root", "home"]);
    expect(pathReads).toBe(0);
  });
});
