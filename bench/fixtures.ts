import { randomBytes } from "node:crypto";
import schedule from "../prisma/schedule.json" with { type: "json" };
import { db } from "~/models/db.server";
import { houseAccountId, postTransaction, userAccountId } from "~/models/money/ledger.server";
import { startSession } from "~/web/auth.server";
import { beacon } from "~/infra/beacon.server";
import { roundAfter } from "~/shared/draw-verifier.mjs";
import { openRaffle } from "~/services/raffles/raffles.server";
import { CARD_ANSWER } from "~/shared/card-answer";

/** What a hydrated raffle card's entry form sends (ADR 093): its answer comes as data. */
export const CARD_BODY = new URLSearchParams({ [CARD_ANSWER.name]: CARD_ANSWER.value }).toString();

/**
 * The benchmark's data, made with the app's own services (players, coins through the
 * ledger, sessions as sign-in makes them, raffles as the scheduler opens them).
 */
export type Player = { id: string; account: string; cookie: string };

/**
 * Signed-in VIP players (so VIP-only raffles take them too), each with `coins` from the
 * promotions account. They are GB players whose identity is verified, as a GB player must be
 * before entering (ADR 080), so the gate's read is on the measured path.
 */
export async function createPlayers(count: number, coins: bigint): Promise<Player[]> {
  const players: Player[] = [];
  for (let i = 0; i < count; i++) {
    const tag = randomBytes(6).toString("hex");
    const user = await db().user.create({
      data: {
        email: `bench-${tag}@bench.local`,
        username: `bench_${tag}`,
        usernameKey: `bench_${tag}`,
        dateOfBirth: new Date("1990-01-01"),
        termsAcceptedAt: new Date(),
        country: "GB",
        identityVerifiedAt: new Date(),
        vipTier: "gold",
        vipExpiry: new Date(Date.now() + 30 * 86_400_000),
      },
      select: { id: true },
    });
    const account = await db().$transaction(async (tx) => {
      const id = await userAccountId(tx, user.id, "user_bonus");
      await postTransaction(tx, {
        kind: "bonus",
        reference: `bench-grant:${user.id}`,
        userId: user.id,
        postings: [
          { accountId: await houseAccountId("promotions", tx), amount: -coins },
          { accountId: id, amount: coins },
        ],
      });
      return id;
    });
    const setCookie = await startSession(new Request("http://127.0.0.1/"), user.id);
    players.push({ id: user.id, account, cookie: setCookie.split(";")[0]! });
  }
  return players;
}

/**
 * The reads figure's players: `count` new players, each of whom enters every regular raffle
 * open on the app once through the API, as a player does: about twenty tickets each, what an
 * engaged player holds within every cap. The entries figure's players hold thousands of
 * tickets in the bench raffles, which no player could (ADR 099). A raffle that closes
 * meanwhile refuses (409) and is passed over.
 */
export async function readingPlayers(port: number, count: number): Promise<Player[]> {
  const players = await createPlayers(count, 1_000_000_000n);
  const base = `http://127.0.0.1:${port}`;
  await Promise.all(
    players.map(async (player) => {
      const headers = { Cookie: player.cookie, Origin: base, Accept: "application/json" };
      const raffles = (await (await fetch(`${base}/api/raffles`, { headers })).json()) as { id: string }[];
      for (const raffle of raffles) {
        const answer = await fetch(`${base}/api/raffles/${raffle.id}/enter`, { method: "POST", headers });
        if (answer.status !== 200 && answer.status !== 409) throw new Error(`an entry answered ${answer.status}: ${await answer.text()}`);
      }
    }),
  );
  return players;
}

export type BenchRaffle = { id: string; kind: "regular" | "quick"; tier: string };

/** One open raffle like a series of the schedule, running for an hour, with `cap` tickets per player. */
export async function openBenchRaffle(series: { kind: string; tier: string; entryPrice: number; vipOnly?: boolean }, cap: number): Promise<BenchRaffle> {
  const now = Date.now();
  const id = await openRaffle({
    kind: series.kind as "regular" | "quick",
    tier: series.tier,
    entryPrice: BigInt(series.entryPrice),
    startsAt: new Date(now - 1000),
    endsAt: new Date(now + 3_600_000),
    vipOnly: series.vipOnly ?? false,
    maxTicketsPerPlayer: cap,
  });
  return { id: id!, kind: series.kind as "regular" | "quick", tier: series.tier };
}

/** One raffle for every series of the schedule: every tier, regular and quick, VIP-only included. */
export async function openRaffleOfEveryTier(cap: number): Promise<BenchRaffle[]> {
  const raffles: BenchRaffle[] = [];
  for (const series of schedule.series) raffles.push(await openBenchRaffle(series, cap));
  return raffles;
}

/**
 * `count` raffles holding `tickets` tickets each, from different players, paid through
 * the ledger as entries are: one balanced transaction per ticket, naming its player (the
 * ledger refuses a posting to a player's account under any other, ADR 092). They end in
 * an hour until `endAllAt` moves their end.
 */
export async function rafflesWithTickets(count: number, tickets: number, players: Player[]): Promise<string[]> {
  if (players.length < tickets) throw new Error("need at least as many players as tickets per raffle");
  const price = 5n;
  const ids: string[] = [];
  for (let i = 0; i < count; i++) ids.push((await openBenchRaffle({ kind: "regular", tier: "micro", entryPrice: Number(price) }, 10)).id);
  const chunk = 100;
  for (let start = 0; start < ids.length; start += chunk) {
    const batch = ids.slice(start, start + chunk);
    const raffles: string[] = [];
    const users: string[] = [];
    const accounts: string[] = [];
    const pots: string[] = [];
    const positions: number[] = [];
    // The players' coins are bonus coins: the tickets go to the bonus pots.
    const potOf = new Map(
      (await db().ledgerAccount.findMany({ where: { raffleId: { in: batch }, kind: "raffle_pot_bonus" }, select: { id: true, raffleId: true } })).map((p) => [
        p.raffleId!,
        p.id,
      ]),
    );
    batch.forEach((raffleId, r) => {
      for (let position = 0; position < tickets; position++) {
        const player = players[(start + r + position) % players.length]!;
        raffles.push(raffleId);
        users.push(player.id);
        accounts.push(player.account);
        pots.push(potOf.get(raffleId)!);
        positions.push(position);
      }
    });
    await db().$transaction(async (tx) => {
      await tx.$executeRaw`
        WITH x AS (
          SELECT x.*, 'bench-ticket:' || x.raffle_id || ':' || x.position AS reference
          FROM unnest(${raffles}::uuid[], ${users}::uuid[], ${accounts}::uuid[], ${pots}::uuid[], ${positions}::int[])
            AS x(raffle_id, user_id, account_id, pot_id, position)
        ), t AS (
          INSERT INTO ledger_transactions (kind, reference, user_id, raffle_id)
          SELECT 'entry', x.reference, x.user_id, x.raffle_id FROM x
          RETURNING id, reference
        )
        INSERT INTO ledger_postings (transaction_id, account_id, amount)
        SELECT t.id, p.account_id, p.amount
        FROM x JOIN t ON t.reference = x.reference
        CROSS JOIN LATERAL (VALUES (x.account_id, ${-price}::bigint), (x.pot_id, ${price}::bigint)) AS p(account_id, amount)`;
      await tx.$executeRaw`
        INSERT INTO entries (raffle_id, user_id, position, cash, bonus)
        SELECT x.*, 0, ${price} FROM unnest(${raffles}::uuid[], ${users}::uuid[], ${positions}::int[]) AS x`;
      await tx.$executeRaw`UPDATE raffles SET ticket_count = ${tickets}, player_count = ${tickets} WHERE id = ANY(${batch}::uuid[])`;
    });
  }
  return ids;
}

/**
 * Moves the raffles' end; a raffle committed to a beacon gets the round that end commits
 * to (the first after it), as if it had opened with that end (ADR 033).
 */
export async function endAllAt(ids: string[], endsAt: Date): Promise<void> {
  const round = roundAfter(beacon().config.chain, endsAt.getTime());
  await db().$executeRaw`
    UPDATE raffles SET ends_at = ${endsAt}, beacon_round = CASE WHEN beacon_chain IS NULL THEN NULL ELSE ${round}::int8 END
    WHERE id = ANY(${ids}::uuid[])`;
}

/** A regular raffle that ends in `endsInMs`: the crowd's draws, ending throughout its run. */
export async function openShortRaffle(endsInMs: number): Promise<{ id: string; endsAt: number }> {
  const endsAt = new Date(Date.now() + endsInMs);
  const id = await openRaffle({
    kind: "regular",
    tier: "micro",
    entryPrice: 5n,
    startsAt: new Date(Date.now() - 1000),
    endsAt,
    vipOnly: false,
    maxTicketsPerPlayer: 10,
  });
  return { id: id!, endsAt: endsAt.getTime() };
}
