import { randomInt } from "node:crypto";
import type { ServerProcess } from "./server-process";

/**
 * Traffic for the crash-recovery test: players entering raffles, players buying coins
 * (demo card), admins approving payouts, all over HTTP against a child server, each
 * loop running until the server is gone. What the server acknowledged is recorded,
 * to be found again after the restart.
 */
export type Acknowledged = {
  /** Entries answered 200: the tickets the player was told they hold. */
  entries: { raffleId: string; userId: string; position: number }[];
  /** Demo-card purchases answered with the success redirect, per player. */
  deposits: Map<string, number>;
  /** Payouts answered 200 with their approval decided (completed, processing or failed: sent, or being sent). */
  payouts: Set<string>;
  /** Every status code seen, to find any 5xx. */
  statuses: number[];
  /** Resolved when the n-th answer has arrived. */
  waiting: { count: number; resolve: () => void }[];
};

export function nothingAcknowledged(): Acknowledged {
  return { entries: [], deposits: new Map(), payouts: new Set(), statuses: [], waiting: [] };
}

/**
 * Resolves once `count` answers (of any status) have arrived: the crash comes at a
 * point in the traffic rather than at a time, so a slow machine is crashed mid-traffic
 * as often as a fast one.
 */
export function afterAnswers(acked: Acknowledged, count: number): Promise<void> {
  if (acked.statuses.length >= count) return Promise.resolve();
  return new Promise((resolve) => acked.waiting.push({ count, resolve }));
}

function answered(acked: Acknowledged, status: number) {
  acked.statuses.push(status);
  for (const waiter of acked.waiting.filter((w) => acked.statuses.length >= w.count)) waiter.resolve();
}

type Actor = { id: string; cookie: string };

/** A POST as a browser on the site would send it; undefined once the server is gone. */
async function post(server: ServerProcess, path: string, cookie: string, body: { json: unknown } | { form: Record<string, string> }) {
  const origin = `http://localhost:${server.port}`;
  const headers: Record<string, string> = { Cookie: cookie, Origin: origin };
  let payload: string;
  if ("json" in body) {
    headers["Content-Type"] = "application/json";
    payload = JSON.stringify(body.json);
  } else {
    headers["Content-Type"] = "application/x-www-form-urlencoded";
    payload = new URLSearchParams(body.form).toString();
  }
  try {
    const response = await fetch(`${origin}${path}`, { method: "POST", headers, body: payload, redirect: "manual" });
    // The body is read in full before the answer counts: a reply cut off by the crash is no acknowledgement.
    const text = await response.text();
    return { status: response.status, location: response.headers.get("location"), text };
  } catch {
    return undefined;
  }
}

async function enterUntilGone(server: ServerProcess, player: Actor, raffleIds: string[], acked: Acknowledged) {
  for (;;) {
    const raffleId = raffleIds[randomInt(raffleIds.length)]!;
    const response = await post(server, `/api/raffles/${raffleId}/enter`, player.cookie, { json: {} });
    if (!response) return;
    answered(acked, response.status);
    if (response.status !== 200) continue;
    const { tickets } = JSON.parse(response.text) as { tickets: number[] };
    for (const position of tickets) acked.entries.push({ raffleId, userId: player.id, position });
  }
}

async function buyUntilGone(server: ServerProcess, player: Actor, acked: Acknowledged) {
  for (;;) {
    const response = await post(server, "/checkout?package=package_1", player.cookie, {
      form: { intent: "demo-pay", cardNumber: "4242 4242 4242 4242", expiry: "12/34", cvc: "123" },
    });
    if (!response) return;
    answered(acked, response.status);
    if (response.status === 302 && response.location === "/") acked.deposits.set(player.id, (acked.deposits.get(player.id) ?? 0) + 1);
  }
}

async function approveUntilGone(server: ServerProcess, admin: Actor, withdrawalIds: string[], acked: Acknowledged) {
  for (const id of withdrawalIds) {
    const response = await post(server, `/api/admin/payouts/${id}/approve`, admin.cookie, { json: {} });
    if (!response) return;
    answered(acked, response.status);
    if (response.status === 200 && ["completed", "processing", "failed"].includes((JSON.parse(response.text) as { status: string }).status))
      acked.payouts.add(id);
  }
}

/** Starts every loop; the promise settles once each has seen the server go (or run out of payouts). */
export function runTraffic(
  server: ServerProcess,
  { players, buyers, admins, raffleIds, withdrawalIds }: { players: Actor[]; buyers: Actor[]; admins: Actor[]; raffleIds: string[]; withdrawalIds: string[] },
  acked: Acknowledged,
): Promise<unknown> {
  return Promise.all([
    ...players.map((p) => enterUntilGone(server, p, raffleIds, acked)),
    ...buyers.map((p) => buyUntilGone(server, p, acked)),
    // Two admins race over the same payouts, in opposite orders.
    approveUntilGone(server, admins[0]!, withdrawalIds, acked),
    approveUntilGone(server, admins[1]!, [...withdrawalIds].reverse(), acked),
  ]);
}
