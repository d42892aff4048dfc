import { forget, remember } from "@epic-web/remember";
import { saveBeaconChain } from "~/models/fairness/beacon-chain.server";
import { getEnv } from "./env.server";
import { getLogger } from "./logger.server";
import { beaconRandomness, QUICKNET, roundAfter, roundTime, verifyBeaconSignature, type BeaconChain } from "~/shared/draw-verifier.mjs";
import { countBeaconFetch } from "./metrics.server";

/**
 * The public randomness beacon a draw waits for: drand rounds fetched from
 * several HTTP relays in drand's format (GET /{chain hash}/public/{round}) and verified
 * here against the chain's key (draw-verifier.mjs), never trusted as sent. One fetch per
 * round, shared by every raffle that waits for it. Nothing here touches the database
 * while it waits.
 */
export type BeaconRound = { ok: true; round: number; signature: string; randomness: string } | { ok: false; round: number; reason: string };

export type BeaconConfig = {
  /** The relays, tried in order; none: raffles are committed without a beacon. */
  urls: string[];
  /** The chain new raffles commit to. */
  chain: BeaconChain;
  /** How long after its time a round may take before its raffles are cancelled. */
  deadlineMs: number;
  /** A relay that has not answered by then gets company: the next relay is asked too. */
  hedgeMs?: number;
  /** One request's limit. */
  requestTimeoutMs?: number;
  /** The pause between two passes over the relays while the round is not out yet. */
  retryMs?: number;
};

type Attempt = { ok: true; signature: string; randomness: string } | { ok: false; problem: string; result: string };

export class BeaconSource {
  private readonly rounds = new Map<string, { promise: Promise<BeaconRound>; settled?: BeaconRound }>();
  private readonly listeners = new Set<() => void>();
  private chainSaved?: Promise<BeaconChain>;

  constructor(readonly config: BeaconConfig) {
    // The first pairing check in a process costs seconds of CPU (noble's precomputed
    // tables): pay it at start-up, not in the first draw's time.
    if (this.commits) setTimeout(warmUp, 0).unref();
  }

  /** Whether new raffles name this beacon in their commitment. */
  get commits(): boolean {
    return this.config.urls.length > 0;
  }

  /** The chain and round a raffle ending at `endsAt` commits to, or null without relays ("no beacon"). */
  async commitmentFor(endsAt: Date): Promise<{ chain: string; round: number } | null> {
    if (!this.commits) return null;
    this.chainSaved ??= saveBeaconChain(this.config.chain).then((stored) => {
      if (stored.publicKey !== this.config.chain.publicKey) throw new Error(`beacon chain ${stored.hash} is stored with another public key`);
      return stored;
    });
    this.chainSaved.catch(() => (this.chainSaved = undefined));
    const chain = await this.chainSaved;
    return { chain: chain.hash, round: roundAfter(chain, endsAt.getTime()) };
  }

  /** The round, fetched and verified once however many ask; settles by its deadline at the latest. */
  get(chain: BeaconChain, round: number): Promise<BeaconRound> {
    const key = `${chain.hash}/${round}`;
    let entry = this.rounds.get(key);
    if (!entry) {
      const created: { promise: Promise<BeaconRound>; settled?: BeaconRound } = { promise: this.fetchRound(chain, round) };
      created.promise.then((settled) => {
        created.settled = settled;
        // Kept a while for the passes that draw its raffles in batches, then forgotten.
        setTimeout(() => this.rounds.delete(key), 10 * 60_000).unref();
        for (const listener of this.listeners) listener();
      });
      this.rounds.set(key, created);
      entry = created;
    }
    return entry.promise;
  }

  /** The round if settled; otherwise starts fetching it (when not already) and returns undefined. */
  peek(chain: BeaconChain, round: number): BeaconRound | undefined {
    void this.get(chain, round);
    return this.rounds.get(`${chain.hash}/${round}`)?.settled;
  }

  /** Calls `listener` whenever a round settles (the scheduler draws at once). */
  onSettled(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private async fetchRound(chain: BeaconChain, round: number): Promise<BeaconRound> {
    const due = roundTime(chain, round);
    const deadline = due + this.config.deadlineMs;
    await pause(due - Date.now());
    let problems: string[] = ["no relay configured (BEACON_URLS is unset)"];
    for (;;) {
      if (this.config.urls.length > 0) {
        const found = await this.askRelays(chain, round);
        if (found.ok) {
          getLogger().info({ component: "beacon", round, afterItsTimeMs: Date.now() - due }, "beacon round fetched and verified");
          return { ok: true, round, signature: found.signature, randomness: found.randomness };
        }
        problems = found.problems;
      }
      const left = deadline - Date.now();
      if (left <= 0) {
        countBeaconFetch("deadline_passed");
        const seconds = this.config.deadlineMs / 1000;
        return { ok: false, round, reason: `beacon round ${round} could not be fetched and verified within ${seconds} s of its time (${problems.join("; ")})` };
      }
      await pause(Math.min(left, this.config.urls.length > 0 ? (this.config.retryMs ?? 250) : left));
    }
  }

  /**
   * Asks the relays in order, each one more when the previous failed or has not answered
   * within `hedgeMs`; the first verified answer wins and the other requests are aborted.
   */
  private askRelays(chain: BeaconChain, round: number): Promise<{ ok: true; signature: string; randomness: string } | { ok: false; problems: string[] }> {
    const { urls, hedgeMs = 500 } = this.config;
    return new Promise((resolve) => {
      const aborts: AbortController[] = [];
      const problems: string[] = [];
      let next = 0;
      let pending = 0;
      let done = false;
      let hedge: NodeJS.Timeout | undefined;
      const finish = (value: Parameters<typeof resolve>[0]) => {
        done = true;
        clearTimeout(hedge);
        for (const abort of aborts) abort.abort();
        resolve(value);
      };
      const launch = () => {
        if (done || next >= urls.length) return;
        const index = next++;
        const abort = new AbortController();
        aborts.push(abort);
        pending += 1;
        clearTimeout(hedge);
        hedge = setTimeout(launch, hedgeMs);
        void this.askRelay(urls[index]!, chain, round, abort.signal).then((attempt) => {
          pending -= 1;
          if (done) return;
          countBeaconFetch(attempt.ok ? "ok" : attempt.result);
          if (attempt.ok) return finish(attempt);
          problems.push(`relay ${index + 1}: ${attempt.problem}`);
          if (next < urls.length) launch();
          else if (pending === 0) finish({ ok: false, problems });
        });
      };
      launch();
    });
  }

  private async askRelay(base: string, chain: BeaconChain, round: number, signal: AbortSignal): Promise<Attempt> {
    const timeoutMs = this.config.requestTimeoutMs ?? 5_000;
    try {
      const response = await fetch(`${base}/${chain.hash}/public/${round}`, {
        signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]),
        headers: { accept: "application/json" },
      });
      if (!response.ok) {
        await response.body?.cancel();
        return { ok: false, result: response.status === 404 || response.status === 425 ? "not_yet" : "http_error", problem: `answered ${response.status}` };
      }
      const body = (await response.json()) as { round?: unknown; signature?: unknown; randomness?: unknown };
      if (body.round !== round) return { ok: false, result: "wrong_round", problem: `sent round ${String(body.round)} for round ${round}` };
      const signature = typeof body.signature === "string" ? body.signature.toLowerCase() : "";
      if (!verifyBeaconSignature(chain.publicKey, round, signature))
        return { ok: false, result: "bad_signature", problem: "its signature does not verify against the chain's key" };
      const randomness = beaconRandomness(signature);
      if (body.randomness !== undefined && body.randomness !== randomness) {
        return { ok: false, result: "bad_signature", problem: "its randomness is not the hash of its signature" };
      }
      return { ok: true, signature, randomness };
    } catch (error) {
      const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
      return { ok: false, result: timedOut ? "timeout" : "unreachable", problem: timedOut ? `no answer within ${timeoutMs} ms` : "unreachable" };
    }
  }
}

/** Quicknet's round 123 (docs/fairness.md): verifying it builds the tables every later check uses. */
function warmUp(): void {
  verifyBeaconSignature(QUICKNET.publicKey, 123, "b75c69d0b72a5d906e854e808ba7e2accb1542ac355ae486d591aa9d43765482e26cd02df835d3546d23c4b13e0dfc92");
}

function pause(ms: number): Promise<void> {
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
}

/** The source BEACON_URLS, BEACON_CHAIN_INFO and BEACON_DEADLINE_SECONDS describe. */
export function beaconFromEnv(): BeaconSource {
  const env = getEnv();
  return new BeaconSource({ urls: env.BEACON_URLS ?? [], chain: env.BEACON_CHAIN_INFO ?? QUICKNET, deadlineMs: env.BEACON_DEADLINE_SECONDS * 1000 });
}

// server.ts and the Remix build each carry a copy of this module: one source per process (remember).
const BEACON = "raffle:beacon";

/** This process's beacon source (from the environment unless set by setBeacon). */
export function beacon(): BeaconSource {
  return remember(BEACON, beaconFromEnv);
}

/** Sets this process's beacon source (tests and the bench run a local beacon); undefined: back to the environment's. */
export function setBeacon(source: BeaconSource | undefined): void {
  forget(BEACON);
  if (source) remember(BEACON, () => source);
}
