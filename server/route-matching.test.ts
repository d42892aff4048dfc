import { createRequire } from "node:module";
import type { AgnosticRouteObject, matchRoutes as MatchRoutes } from "@remix-run/router";
import { describe, expect, it } from "vitest";

// The router exactly as the server runtime loads it (its CommonJS build, patched: ADR 044),
// and its UMD build, which the patch leaves as published: what matching gave before.
const require = createRequire(import.meta.url);
const { matchRoutes } = require("@remix-run/router") as { matchRoutes: typeof MatchRoutes };
const stock = (require("@remix-run/router/dist/router.umd.js") as { matchRoutes: typeof MatchRoutes }).matchRoutes;

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

  it("gives what the published router gives, again and again, to each caller its own copy", () => {
    const tree = routes();
    const paths = [
      "/",
      "/admin",
      "/admin/",
      "/admin/users",
      "/raffles/r-1/enter",
      "/raffles/r%20x/enter",
      "/raffles//enter",
      "/API/raffles",
      "/rules",
      "/RULES",
      "/x/y",
      "",
    ];
    const plain = (matches: ReturnType<typeof MatchRoutes>) => matches?.map(({ route, ...rest }) => ({ route: route.id, ...rest }));
    for (let round = 0; round < 3; round++) {
      for (const path of paths) expect(plain(matchRoutes(tree, path)), path).toEqual(plain(stock(tree, path)));
      expect(plain(matchRoutes(tree, "/raffles/r-1/enter", "/raffles"))).toEqual(plain(stock(tree, "/raffles/r-1/enter", "/raffles")));
    }
    // A caller that changes its matches changes nothing for the next one; the matches of one
    // call share one params object, as published.
    const first = matchRoutes(tree, "/raffles/r-9/enter")!;
    expect(first[0]!.params).toBe(first[1]!.params);
    (first[1]!.params as Record<string, string>).id = "changed";
    first.pop();
    expect(matchRoutes(tree, "/raffles/r-9/enter")?.map((m) => [m.route.id, m.params.id])).toEqual([
      ["root", "r-9"],
      ["raffle.enter", "r-9"],
    ]);
    // Long pathnames and more pathnames than are kept still match.
    expect(matchRoutes(tree, `/raffles/${"r".repeat(300)}/enter`)?.at(-1)?.params).toEqual({ id: "r".repeat(300) });
    for (let i = 0; i < 1_500; i++) expect(matchRoutes(tree, `/raffles/r-${i}/enter`)?.at(-1)?.params).toEqual({ id: `r-${i}` });
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
