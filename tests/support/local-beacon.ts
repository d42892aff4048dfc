import { createHash } from "node:crypto";
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { bls12_381 } from "@noble/curves/bls12-381.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import { BEACON_DST, BEACON_SCHEME, beaconMessage, beaconRandomness, roundTime, type BeaconChain } from "~/shared/draw-verifier.mjs";

/**
 * A local drand beacon for tests and the bench (ADR 033): HTTP relays in drand's relay
 * format (GET /{chain hash}/info, GET /{chain hash}/public/{round}) that sign rounds
 * with a test key on quicknet's scheme (bls-unchained-g1-rfc9380), so the server's real
 * verification path runs. Each relay behaves as told: honest, forging signatures (another
 * key), answering another round, never answering, or down (503). A round is served only
 * once its time has come (425 before, as drand's relays do).
 */
export type RelayMode = "ok" | "forged" | "wrong_round" | "hang" | "down";

export type LocalBeacon = {
  chain: BeaconChain;
  /** The chain's info as its relays publish it (BEACON_CHAIN_INFO). */
  info: string;
  urls: string[];
  /** Round requests each relay answered (or held, or refused being down), not counting "too early". */
  hits: number[];
  modes: RelayMode[];
  signature: (round: number) => string;
  randomness: (round: number) => string;
  close: () => Promise<void>;
};

const bls = bls12_381.shortSignatures;

function signer(secretKey: Uint8Array) {
  const cache = new Map<number, string>();
  return (round: number) => {
    let signature = cache.get(round);
    if (!signature) {
      signature = bytesToHex(bls.sign(bls.hash(beaconMessage(round), BEACON_DST), secretKey).toBytes());
      cache.set(round, signature);
    }
    return signature;
  };
}

/**
 * `alignSeconds`: the chain's genesis falls on a multiple of it (Unix time), so that rounds
 * come at a fixed phase of clock boundaries (the bench ends its raffles just before one).
 */
export async function startLocalBeacon({
  modes = ["ok"],
  periodSeconds = 1,
  alignSeconds = 1,
}: { modes?: RelayMode[]; periodSeconds?: number; alignSeconds?: number } = {}): Promise<LocalBeacon> {
  const secretKey = bls12_381.utils.randomSecretKey();
  const publicKey = bytesToHex(bls.getPublicKey(secretKey).toBytes());
  const chain: BeaconChain = {
    hash: createHash("sha256").update(`test beacon ${publicKey}`).digest("hex"),
    publicKey,
    scheme: BEACON_SCHEME,
    periodSeconds,
    genesisTime: Math.floor((Date.now() / 1000 - 100 * periodSeconds) / alignSeconds) * alignSeconds,
    beaconId: "test-quicknet",
  };
  const info = JSON.stringify({
    public_key: chain.publicKey,
    period: chain.periodSeconds,
    genesis_time: chain.genesisTime,
    hash: chain.hash,
    groupHash: chain.hash,
    schemeID: chain.scheme,
    metadata: { beaconID: chain.beaconId },
  });
  const sign = signer(secretKey);
  const forge = signer(bls12_381.utils.randomSecretKey());
  const hits = modes.map(() => 0);
  const hanging = new Set<ServerResponse>();
  const send = (res: ServerResponse, status: number, body?: unknown) => {
    res.writeHead(status, { "content-type": "application/json" }).end(body === undefined ? undefined : JSON.stringify(body));
  };
  const servers: Server[] = await Promise.all(
    modes.map(
      (_, index) =>
        new Promise<Server>((resolve) => {
          const server = createServer((req, res) => {
            const match = /^\/([0-9a-f]{64})\/(info|public\/(\d+))$/.exec(req.url ?? "");
            if (!match || match[1] !== chain.hash) return send(res, 404, { error: "unknown chain" });
            if (match[2] === "info") return send(res, 200, JSON.parse(info));
            const round = Number(match[3]);
            const mode = beacon.modes[index]!;
            if (mode === "down") {
              hits[index]! += 1;
              return send(res, 503, { error: "down" });
            }
            if (mode === "hang") {
              hits[index]! += 1;
              hanging.add(res);
              res.on("close", () => hanging.delete(res));
              return;
            }
            if (Date.now() < roundTime(chain, round)) return send(res, 425, { error: "round not yet produced" });
            hits[index]! += 1;
            const served = mode === "wrong_round" ? round + 1 : round;
            const signature = mode === "forged" ? forge(served) : sign(served);
            send(res, 200, { round: served, randomness: beaconRandomness(signature), signature });
          });
          server.listen(0, "127.0.0.1", () => resolve(server));
        }),
    ),
  );
  // Each round is signed ahead of its time, as drand's nodes sign as the round begins,
  // so that a relay answers at once (the first signature also builds noble's tables).
  const now = () => Math.max(1, Math.floor((Date.now() / 1000 - chain.genesisTime) / periodSeconds) + 1);
  sign(now());
  const ahead = setInterval(() => sign(now() + 1), (periodSeconds * 1000) / 2);
  ahead.unref();
  const beacon: LocalBeacon = {
    chain,
    info,
    urls: servers.map((server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    hits,
    modes: [...modes],
    signature: sign,
    randomness: (round) => beaconRandomness(sign(round)),
    close: async () => {
      clearInterval(ahead);
      for (const res of hanging) res.destroy();
      await Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
    },
  };
  return beacon;
}
