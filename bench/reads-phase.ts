import { reads } from "./figures";
import type { Player } from "./fixtures";
import { showSpread, spread, type Row } from "./repeat";

type Load = Awaited<ReturnType<typeof reads>>;
type Ports = { app: number; json: number; remix: number; hello: number };

/**
 * Figure 2, reads, `repeats` times, each run in the same order (the app, then its reference,
 * for the JSON list and then the home page), so that the pairs alternate through the run.
 */
export async function readsPhase({
  repeats,
  seconds,
  players,
  ports,
  log,
}: {
  repeats: number;
  seconds: number;
  players: Player[];
  ports: Ports;
  log: (line: string) => void;
}): Promise<{ rows: Row[]; details: string[]; loads: { phase: string; load: Load }[] }> {
  const steps = [
    { key: "api", name: "GET /api/raffles", port: ports.app, path: "/api/raffles" },
    { key: "json", name: "reference JSON from memory", port: ports.json, path: "/api/raffles" },
    { key: "home", name: "home page signed in", port: ports.app, path: "/" },
    { key: "remix", name: "reference Remix app's home page", port: ports.remix, path: "/" },
  ] as const;
  const runs = new Map<string, Load[]>();
  const loads: { phase: string; load: Load }[] = [];
  for (let run = 1; run <= repeats; run++) {
    for (const step of steps) {
      log(`reads ${run}/${repeats}, ${step.name}: 64 connections, ${seconds} s`);
      const load = await reads({ port: step.port, path: step.path, players, seconds, connections: 64 });
      runs.set(step.key, [...(runs.get(step.key) ?? []), load]);
      loads.push({ phase: step.name, load });
    }
  }
  log(`reads, Express hello world (context): 64 connections, ${seconds} s`);
  const hello = await reads({ port: ports.hello, path: "/", players, seconds, connections: 64 });
  loads.push({ phase: "hello world", load: hello });
  const details = [`Express hello world (64 connections, context only): ${hello.perSecond.toFixed(0)} req/s, p99 ${hello.p99.toFixed(1)} ms.`];
  for (const { phase, load } of loads) if (load.failed) details.push(`${phase}: ${load.failed} failed requests, e.g. ${load.failures.join("; ")}`);

  const pair = (mine: string, theirs: string) => {
    const [a, b] = [runs.get(mine)!, runs.get(theirs)!];
    return {
      rate: spread(a.map((l) => l.perSecond)),
      p99: spread(a.map((l) => l.p99)),
      reference: spread(b.map((l) => l.perSecond)),
      ratio: spread(a.map((l, i) => l.perSecond / b[i]!.perSecond)),
      failed: [...a, ...b].some((l) => l.failed > 0),
    };
  };
  const api = pair("api", "json");
  const home = pair("home", "remix");
  const rows: Row[] = [
    {
      figure: "GET /api/raffles",
      measured: `${showSpread(api.rate)} req/s, p99 ${showSpread(api.p99, 1, " ms")}`,
      baseline: `reference (Express, same JSON bytes from memory): ${showSpread(api.reference)} req/s`,
      ratio: showSpread(api.ratio, 2),
      target: "ratio ≥ 0.8 (median)",
      pass: api.ratio.median >= 0.8 && !api.failed,
    },
    {
      figure: "Home page, signed in (SSR)",
      measured: `${showSpread(home.rate)} req/s, p99 ${showSpread(home.p99, 1, " ms")}`,
      baseline: `reference (stock Remix, the same components and data as constants): ${showSpread(home.reference)} req/s`,
      ratio: showSpread(home.ratio, 2),
      target: "ratio ≥ 0.8 (median)",
      pass: home.ratio.median >= 0.8 && !home.failed,
    },
  ];
  for (const row of rows) log(`  ${row.figure}: ${row.measured} → ratio ${row.ratio}`);
  return { rows, details, loads };
}

/**
 * The home page's HTML by part (issue 36: "with its bytes by part"): what the server sends
 * before gzip, split into the data the client is handed (the single-fetch stream and the
 * route manifest in inline scripts), inline SVG, the head's links and metadata, and the
 * markup that remains.
 */
export function htmlParts(html: string): { part: string; bytes: number }[] {
  const bytes = (s: string) => Buffer.byteLength(s);
  const total = bytes(html);
  let rest = html;
  const take = (pattern: RegExp) => {
    let sum = 0;
    rest = rest.replace(pattern, (match) => {
      sum += bytes(match);
      return "";
    });
    return sum;
  };
  const parts = [
    { part: "inline scripts (loader data, route manifest)", bytes: take(/<script(?![^>]*\bsrc=)[^>]*>[\s\S]*?<\/script>/g) },
    { part: "script and module-preload tags", bytes: take(/<script[^>]*\bsrc=[^>]*><\/script>|<link[^>]*rel="modulepreload"[^>]*\/?>/g) },
    { part: "inline SVG", bytes: take(/<svg[\s\S]*?<\/svg>/g) },
    { part: "head: links, meta, title", bytes: take(/<(?:link|meta)[^>]*\/?>|<title>[\s\S]*?<\/title>/g) },
  ];
  parts.push({ part: "markup and text", bytes: bytes(rest) });
  return [...parts, { part: "total", bytes: total }];
}
