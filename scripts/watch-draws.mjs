#!/usr/bin/env node
// @ts-check
// Watches a site's draws from outside (issue 34, ADR 075): reads its public feed
// (/fair/feed.xml), and for every result re-checks, with the verifier /fair/<id> runs
// (app/shared/draw-verifier.mjs), the draw's public JSON against its commitment, and the
// beacon round against drand's own relays, never the site's copy. Prints one line per draw
// and an ALARM line when a result does not verify or is late (no result, or a result drawn,
// more than --margin seconds after its round, or after its end for a draw without a beacon).
// An admin's early close (fair:closed: the same seed, a round no later) replaces the commitment.
//
// Usage: node scripts/watch-draws.mjs <site> [--relays url,url] [--margin 60] [--since 1440]
//          [--follow 10] [--require-beacon]
//   --relays   drand relays to check beacon rounds with (default: drand's public relays)
//   --since    how far back to read the feed, in minutes (default one day)
//   --follow   read the feed again every so many seconds, printing what is new, until stopped
//   --require-beacon  a draw not joined to a beacon is an alarm
// Exit code: 0 when nothing was wrong, 1 after any alarm, 2 for a usage error.
import { DOMParser } from "@xmldom/xmldom";
import { QUICKNET, verifyBeaconSignature, verifyDraw } from "../app/shared/draw-verifier.mjs";

const ATOM = "http://www.w3.org/2005/Atom";
const FAIR = "urn:raffle-rush:fair:1";
const DRAND_RELAYS = ["https://api.drand.sh", "https://api2.drand.sh", "https://api3.drand.sh", "https://drand.cloudflare.com"];
const TIMEOUT_MS = 10_000;

/** @param {string[]} argv */
function readOptions(argv) {
  /** @type {{ site?: string; relays: string[]; marginMs: number; sinceMs: number; followMs: number | null; requireBeacon: boolean }} */
  const options = { relays: DRAND_RELAYS, marginMs: 60_000, sinceMs: 86_400_000, followMs: null, requireBeacon: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = /** @type {string} */ (argv[i]);
    const value = () => {
      const next = argv[++i];
      if (next === undefined) throw new Error(`${arg} needs a value`);
      return next;
    };
    const seconds = () => {
      const n = Number(value());
      if (!Number.isFinite(n) || n < 0) throw new Error(`${arg} needs a number`);
      return n;
    };
    if (arg === "--relays") options.relays = value().split(",").filter(Boolean);
    else if (arg === "--margin") options.marginMs = seconds() * 1000;
    else if (arg === "--since") options.sinceMs = seconds() * 60_000;
    else if (arg === "--follow") options.followMs = Math.max(1, seconds()) * 1000;
    else if (arg === "--require-beacon") options.requireBeacon = true;
    else if (!arg.startsWith("--") && !options.site) options.site = arg.replace(/\/+$/, "");
    else throw new Error(`unknown argument ${arg}`);
  }
  if (!options.site || !/^https?:\/\//.test(options.site)) throw new Error("give the site's address, like https://raffle.example");
  return /** @type {typeof options & { site: string }} */ (options);
}

/** @param {string} url */
async function get(url) {
  const response = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS), headers: { Accept: "application/atom+xml, application/json" } });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return response;
}

/** @param {import("@xmldom/xmldom").Element} parent @param {string} ns @param {string} name */
const children = (parent, ns, name) =>
  /** @type {import("@xmldom/xmldom").Element[]} */ (Array.from(parent.childNodes).filter((n) => n.nodeType === 1)).filter(
    (e) => e.namespaceURI === ns && e.localName === name,
  );

/**
 * The feed's events back to `sinceMs` ago, newest first, each with its facts and JSON link.
 * @param {string} site @param {number} sinceMs
 */
async function readFeed(site, sinceMs) {
  const parser = new DOMParser({
    onError: (level, message) => {
      if (level !== "warning") throw new Error(`the feed is not well-formed XML: ${message}`);
    },
  });
  const cutoff = Date.now() - sinceMs;
  /** @type {{ event: string; at: number; facts: Record<string, string>; json: string }[]} */
  const events = [];
  /** @type {string | undefined} */
  let url = `${site}/fair/feed.xml`;
  for (let pages = 0; url && pages < 1_000; pages++) {
    const feed = parser.parseFromString(await (await get(url)).text(), "application/xml").documentElement;
    if (!feed || feed.namespaceURI !== ATOM || feed.localName !== "feed") throw new Error(`${url} is not an Atom feed`);
    let older = false;
    for (const entry of children(feed, ATOM, "entry")) {
      const facts = [...children(entry, FAIR, "commitment"), ...children(entry, FAIR, "closed"), ...children(entry, FAIR, "result")][0];
      const at = Date.parse(children(entry, ATOM, "updated")[0]?.textContent ?? "");
      if (!facts) continue;
      if (at < cutoff) older = true;
      const json =
        children(entry, ATOM, "link")
          .find((l) => l.getAttribute("type") === "application/json")
          ?.getAttribute("href") ?? "";
      events.push({ event: facts.localName ?? "", at, facts: Object.fromEntries(Array.from(facts.attributes).map((a) => [a.name, a.value])), json });
    }
    url = older
      ? undefined
      : (children(feed, ATOM, "link")
          .find((l) => l.getAttribute("rel") === "next")
          ?.getAttribute("href") ?? undefined);
  }
  return events.filter((e) => e.at >= cutoff);
}

/** drand relays' answers, asked in order until one answers; each chain's info and round once. */
function relaysOf(/** @type {string[]} */ relays) {
  /** @type {Map<string, Promise<any>>} */
  const cache = new Map();
  /** @param {string} path */
  const ask = (path) => {
    let answer = cache.get(path);
    if (!answer) {
      answer = (async () => {
        const problems = [];
        for (const relay of relays) {
          try {
            return await (await get(`${relay.replace(/\/+$/, "")}${path}`)).json();
          } catch (error) {
            problems.push(error instanceof Error ? error.message : String(error));
          }
        }
        throw new Error(`no relay answered ${path} (${problems.join("; ")})`);
      })();
      cache.set(path, answer);
      answer.catch(() => cache.delete(path));
    }
    return answer;
  };
  return {
    info: (/** @type {string} */ chain) => ask(`/${chain}/info`),
    round: (/** @type {string} */ chain, /** @type {number} */ round) => ask(`/${chain}/public/${round}`),
  };
}

/**
 * What is wrong with a drawn raffle's record, checked from outside: [] when it holds.
 * @param {any} draw its public JSON @param {Record<string, string>} result the feed's facts
 * @param {Record<string, string> | undefined} commitment the feed's commitment, when seen
 * @param {ReturnType<typeof relaysOf>} relays
 */
async function problemsOf(draw, result, commitment, relays) {
  const problems = [];
  const committed = commitment ?? result;
  if (draw.seedHash !== committed.seedHash) problems.push(`its seed hash is not the one committed (${committed.seedHash})`);
  if (String(draw.beacon?.round ?? "") !== (committed.beaconRound ?? "")) problems.push(`its beacon round is not the one committed`);
  for (const [key, published] of [
    ["winningTicket", draw.winningTicket],
    ["seed", draw.seed],
    ["merkleRoot", draw.merkleRoot],
  ]) {
    if (result[key] !== undefined && String(published) !== result[key]) problems.push(`the feed's ${key} differs from the draw's record`);
  }
  const verdict = await verifyDraw(draw);
  if (!verdict.verified) {
    const failed = verdict.checks.filter((c) => !c.ok).map((c) => `${c.label} (expected ${c.expected}, got ${c.actual})`);
    problems.push(...(failed.length ? failed : [verdict.reason ?? "it does not verify"]));
  }
  if (draw.beacon) {
    const info = await relays.info(draw.beacon.chainHash);
    const pinned = draw.beacon.chainHash === QUICKNET.hash ? QUICKNET.publicKey : info.public_key;
    if (info.public_key !== pinned || draw.beacon.publicKey !== pinned) problems.push("the chain's public key is not the one drand's relays publish");
    const round = await relays.round(draw.beacon.chainHash, draw.beacon.round);
    if (round.round !== draw.beacon.round || !verifyBeaconSignature(pinned, draw.beacon.round, String(round.signature))) {
      problems.push(`the relays' round ${draw.beacon.round} does not verify`);
    } else if (round.signature !== draw.beacon.signature) {
      problems.push(`its beacon signature is not the relays' round ${draw.beacon.round}`);
    }
  }
  return problems;
}

/** When a raffle is due to be drawn: its beacon round's time, or its end without a beacon. */
function dueOf(/** @type {Record<string, string>} */ facts) {
  return facts.roundTime ? Date.parse(facts.roundTime) : Date.parse(facts.endsAt ?? "");
}

/**
 * One pass: prints a line for each draw not reported yet and an alarm for each raffle newly
 * overdue, and returns how many alarms it raised.
 * @param {ReturnType<typeof readOptions>} options @param {ReturnType<typeof relaysOf>} relays
 * @param {{ commitments: Map<string, Record<string, string>>; reported: Set<string>; overdue: Set<string> }} seen
 */
async function pass(options, relays, { commitments, reported, overdue }) {
  let alarms = 0;
  const alarm = (/** @type {string} */ line) => {
    alarms += 1;
    console.log(`ALARM ${line}`);
  };
  let events;
  try {
    events = await readFeed(options.site, options.sinceMs);
  } catch (error) {
    alarm(`cannot read the feed: ${error instanceof Error ? error.message : String(error)}`);
    return alarms;
  }
  // A commitment seen once is kept: a later change to it shows as a mismatch.
  for (const e of events) if (e.event === "commitment" && !commitments.has(e.facts.raffle ?? "")) commitments.set(e.facts.raffle ?? "", e.facts);
  // An admin's early close replaces it: the same seed, and a round no later than the one committed.
  for (const e of [...events].reverse()) {
    const id = e.facts.raffle ?? "";
    const kept = commitments.get(id);
    if (e.event !== "closed" || !kept || kept.closedAt) continue;
    if (e.facts.seedHash !== kept.seedHash || (kept.beaconRound && Number(e.facts.beaconRound) > Number(kept.beaconRound))) {
      alarm(`${id} closed early with a commitment that is not the one made (seed hash or a later round)`);
    }
    commitments.set(id, e.facts);
  }
  const results = new Map(events.filter((e) => e.event === "result").map((e) => [e.facts.raffle ?? "", e]));
  for (const e of [...results.values()].reverse()) {
    const id = e.facts.raffle ?? "";
    if (reported.has(id)) continue;
    reported.add(id);
    const due = dueOf(commitments.get(id) ?? e.facts);
    const drawnAt = Date.parse(e.facts.drawnAt ?? "");
    const late = drawnAt > due + options.marginMs ? `; late: drawn ${Math.round((drawnAt - due) / 1000)} s after its round` : "";
    if (e.facts.status === "cancelled") {
      if (late) alarm(`${id} cancelled (${e.facts.cancelReason})${late}`);
      else console.log(`cancelled ${id}: ${e.facts.cancelReason}`);
      continue;
    }
    try {
      const draw = await (await get(e.json)).json();
      const problems = await problemsOf(draw, e.facts, commitments.get(id), relays);
      if (!draw.beacon && options.requireBeacon) problems.push("it was not joined to a beacon");
      const what = `${id} ticket ${draw.winningTicket} of ${draw.ticketCount}, ${draw.beacon ? `beacon round ${draw.beacon.round}` : "no beacon (the seed alone decided it)"}`;
      if (problems.length) alarm(`${what} DOES NOT VERIFY: ${problems.join("; ")}`);
      else if (late) alarm(`${what} verified${late}`);
      else console.log(`verified ${what}`);
    } catch (error) {
      alarm(`${id} cannot be checked: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  const now = Date.now();
  for (const [id, facts] of commitments) {
    const due = dueOf(facts);
    if (results.has(id) || reported.has(id) || overdue.has(id) || !(now > due + options.marginMs)) continue;
    overdue.add(id);
    alarm(`${id} late: no result ${Math.round((now - due) / 1000)} s after its ${facts.roundTime ? `beacon round ${facts.beaconRound}` : "end"}`);
  }
  return alarms;
}

let options;
try {
  options = readOptions(process.argv.slice(2));
} catch (error) {
  console.error(`watch-draws: ${error instanceof Error ? error.message : String(error)}`);
  console.error("usage: node scripts/watch-draws.mjs <site> [--relays url,url] [--margin seconds] [--since minutes] [--follow seconds] [--require-beacon]");
  process.exit(2);
}
const relays = relaysOf(options.relays);
const seen = { commitments: new Map(), reported: new Set(), overdue: new Set() };
let alarms = await pass(options, relays, seen);
if (options.followMs !== null) {
  const followMs = options.followMs;
  const stop = () => process.exit(alarms > 0 ? 1 : 0);
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, followMs));
    alarms += await pass(options, relays, seen);
  }
}
console.log(alarms > 0 ? `${alarms} alarm(s): see the ALARM lines above` : `${seen.reported.size} draw(s) checked, no alarm`);
process.exit(alarms > 0 ? 1 : 0);
