import { readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";

/** The JavaScript budget of a signed-in home page, gzip-compressed (issue 9; docs/benchmarks.md). */
export const HOME_JS_BUDGET_BYTES = 150_000;

/**
 * The ceiling of the pages with forms of their own (`/withdraw`, 161.3 kB with its card and
 * bank forms; `/responsible-play`, 150.2 kB): the heaviest today and room for a small
 * feature, so that a large library on a shared path fails a test rather than only showing
 * in the next bench's table.
 */
export const PAGE_JS_BUDGET_BYTES = 165_000;

/** The pages whose forms bring conform and zod (the others must not: see below). */
export const PAGES_WITH_FORMS = ["/withdraw", "/responsible-play"];

/**
 * The ceiling of every other page, the home page's included (118 to 128 kB since zod left
 * the shell's shared modules, fdb5044): zod coming back through one of them (24 kB) fails a
 * test, while the home page's target in the bench stays the 150 kB.
 */
export const FORMLESS_PAGE_JS_BUDGET_BYTES = 135_000;

/** The pages a player loads, the home page first: the bench weighs them all, the browser test holds their budgets. */
export const PLAYER_PAGES = ["/", "/quick", "/vip", "/checkout?package=package_2", "/history", "/withdraw", "/responsible-play", "/rules", "/terms"];

export type AssetWeight = { js: number; css: number; files: number };

/**
 * What a page loads on first visit, gzip-compressed (level 9): every module script,
 * modulepreload and stylesheet its server-rendered HTML names, and the route modules Remix
 * names in an inline import(), sized from the production build's files under `buildDir`.
 * Shared by `npm run bench` (figure 4) and the browser test that holds the home page's budget.
 */
export function assetWeight(html: string, buildDir: string, sizes = new Map<string, number>()): AssetWeight {
  const gzipped = (href: string) => {
    let size = sizes.get(href);
    if (size === undefined) {
      size = gzipSync(readFileSync(path.join(buildDir, "client", new URL(href, "http://x").pathname)), { level: 9 }).length;
      sizes.set(href, size);
    }
    return size;
  };
  const scripts = new Set<string>();
  const styles = new Set<string>();
  for (const [tag] of html.matchAll(/<(?:link|script)\b[^>]*>/g)) {
    const href = /\b(?:href|src)="([^"]+)"/.exec(tag)?.[1];
    if (!href || !href.startsWith("/")) continue;
    if (/rel="modulepreload"/.test(tag) || (/^<script/.test(tag) && href.endsWith(".js"))) scripts.add(href);
    else if (/rel="stylesheet"/.test(tag)) styles.add(href);
  }
  for (const [, href] of html.matchAll(/import\s*(?:\*\s*as\s*\w+\s*from\s*)?["'](\/assets\/[^"']+\.js)["']/g)) scripts.add(href!);
  const sum = (hrefs: Set<string>) => [...hrefs].reduce((total, href) => total + gzipped(href), 0);
  return { js: sum(scripts), css: sum(styles), files: scripts.size + styles.size };
}
