import { matchRoutes, type AgnosticRouteObject } from "@remix-run/router";
import type { ServerBuild } from "@remix-run/node";
import type { RequestHandler } from "express";
import { LRUCache } from "lru-cache";
import { observeHttp } from "../app/infra/metrics.server";

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
/** Paths answered before Remix, labelled as themselves. */
const OWN_PATHS = new Set(["/healthz", "/readyz", "/metrics"]);

/** The build's routes as a tree, for matchRoutes: a route's path is relative to its parent's. */
function routeTree(routes: ServerBuild["routes"], parentId?: string): AgnosticRouteObject[] {
  return Object.values(routes)
    .filter((route) => route?.parentId === parentId)
    .map((route) =>
      route!.index ? { id: route!.id, index: true, path: route!.path } : { id: route!.id, path: route!.path, children: routeTree(routes, route!.id) },
    );
}

/**
 * The route label of a request: the route pattern it matches (/api/raffles/:id/enter),
 * never the raw URL, so that the label's values are as few as the routes. Assets are one
 * label; without a build (development), every Remix request is "(development)".
 */
export function routeLabeller(build: ServerBuild | undefined): (path: string) => string {
  const tree = build ? routeTree(build.routes) : undefined;
  // The busiest paths are few ("/", "/api/raffles"): each is matched once, not at every answer
  // (a match scans every route). Bounded, as paths with ids are many.
  const labels = new LRUCache<string, string>({ max: 1_000 });
  const match = (path: string) => {
    const matches = matchRoutes(tree!, path);
    if (!matches) return "(unmatched)";
    const pattern = matches
      .map((match) => match.route.path ?? "")
      .filter(Boolean)
      .join("/");
    return `/${pattern}`;
  };
  return (path) => {
    if (OWN_PATHS.has(path)) return path;
    if (path.startsWith("/assets/")) return "/assets/*";
    if (!tree) return "(development)";
    let label = labels.get(path);
    if (label === undefined) {
      label = match(path);
      labels.set(path, label);
    }
    return label;
  };
}

/** Counts and times every answer by method, route pattern and status. */
export function httpMetrics(label: (path: string) => string): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.once("finish", () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const method = METHODS.has(req.method) ? req.method : "OTHER";
      observeHttp({ method, route: label(req.path), status: res.statusCode }, seconds);
    });
    next();
  };
}
