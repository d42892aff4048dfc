import { createHash, randomBytes } from "node:crypto";
import { insertWinMails } from "~/models/system/email-outbox.server";
import type { RaffleKind } from "~/generated/prisma/client";
import { db, type Tx } from "~/models/db.server";
import { createRafflePots, houseAccountId, nonZero } from "~/models/money/ledger.server";
import {
  addWinnings,
  claimDueRaffles,
  lockPayoutRows,
  lockPots,
  markCancelled,
  markCompleted,
  playersForDraw,
  postTransactions,
  recordDraws,
  ticketsOfRaffles,
  type BulkTransaction,
  type Completed,
  type DrawTicket,
  type RaffleToDraw,
} from "~/models/raffles/draw.server";
import { insertOutcomeNotices, type OutcomeNoticeRow } from "~/models/raffles/outcome-notice.server";
import { insertRaffle, type NewRaffle } from "~/models/raffles/raffle.server";
import { dueBeaconRounds } from "~/models/fairness/beacon-chain.server";
import { beacon, type BeaconRound, type BeaconSource } from "~/infra/beacon.server";
import { DomainError } from "~/shared/domain-error";
import { CHANNEL, noticeEvents, publish, type GameEvent } from "~/infra/events.server";
import { wake } from "~/infra/listener.server";
import { countDraws, countEntry } from "~/infra/metrics.server";
import { coinsToDecimal } from "~/shared/money";
import { merkleRoot, winningTicket } from "~/services/fairness/draw-math.server";
import type { CoinMix } from "~/shared/coin-mix";
import { splitPotMix } from "~/shared/prize";
import { submitEntry } from "~/services/raffles/entry-queue.server";
import { entryLimit, RateLimited, slidingWindow } from "../system/rate-limit.server";
import { exclusionError, jurisdictionError } from "../play-safety/responsible-play.server";
import { IDENTITY_FIRST_MESSAGE } from "~/shared/jurisdictions";
import { activeVipTier, winMultiplierTenths } from "~/shared/vip";
import { USERNAME_FIRST } from "~/shared/username";
import { displayName } from "~/shared/display-name";
import { toldRound } from "~/shared/live-reload";

/**
 * Opens a raffle with a fresh secret seed and publishes the seed's hash and, with beacon
 * relays configured, the beacon chain and the round its draw will use: the first after
 * its end. With a schedule slot, opening is idempotent: several instances
 * opening the same slot and start time create one raffle. Returns the raffle id, or
 * undefined when it existed.
 */
export async function openRaffle(raffle: NewRaffle): Promise<string | undefined> {
  const seed = randomBytes(32);
  const seedHash = createHash("sha256").update(seed).digest("hex");
  const commitment = await beacon().commitmentFor(raffle.endsAt);
  return db().$transaction(async (tx) => {
    const id = await insertRaffle(tx, raffle, { seedHash, seed: seed.toString("hex"), beacon: commitment });
    if (!id) return undefined;
    await createRafflePots(tx, id);
    // With its card: open pages add it at its start (ADR 094).
    await publish(tx, { type: "round", ...toldRound(id, raffle) });
    return id;
  });
}

export type EntryResult = {
  raffleId: string;
  tier: string;
  positions: number[];
  cost: bigint;
  balance: bigint;
  /** The player's coins after the entry, as cash and bonus, and their tickets in the raffle. */
  cash: bigint;
  bonus: bigint;
  held: number;
};

/**
 * Buys `tickets` tickets for the player: the player may play (a username, no break or exclusion),
 * the raffle is open (server time in [startsAt, endsAt)), takes the player (VIP-only raffles), the
 * per-raffle cap holds and the coins are there. Debits the player, credits the pot, adds the tickets,
 * records the audit event and publishes the new pot, all in one database transaction. The rules run
 * in the database (enter_raffles), in batches shared with concurrent entries (entry-queue.server.ts).
 */
export async function enterRaffle({
  raffleId,
  kind,
  tickets = 1,
  now = new Date(),
  ...entrant
}: ({ userId: string } | { sessionHash: string }) & {
  raffleId: string;
  /** When given, a raffle of the other kind is "not found" (quick ids on the regular endpoint). */
  kind?: RaffleKind;
  tickets?: number;
  now?: Date;
}): Promise<EntryResult> {
  if (!Number.isInteger(tickets) || tickets < 1) throw new RangeError("tickets must be a positive integer");
  // A player's entry (from a session) is checked and counted against the rate limit in its own transaction.
  const window = "sessionHash" in entrant ? slidingWindow(entryLimit(), now) : undefined;
  const row = await submitEntry({ ...entrant, raffleId, kind, tickets, now, window });
  countEntry(row.outcome);
  switch (row.outcome) {
    case "signed_out":
      throw new DomainError("signed_out", "Unauthorized");
    case "not_onboarded":
      throw new DomainError("not_onboarded", "Please finish signing up first");
    case "no_username":
      throw new DomainError("username_required", USERNAME_FIRST);
    case "rate_limited":
      throw new RateLimited(window!.retryAfter);
    case "ok":
      return {
        raffleId,
        tier: row.tier!,
        positions: Array.from({ length: tickets }, (_, i) => row.firstPosition! + i),
        cost: row.cost!,
        balance: row.balance!,
        cash: row.cashBalance!,
        bonus: row.bonusBalance!,
        held: row.ticketsHeld!,
      };
    case "user_not_found":
      throw new DomainError("user_not_found", "Player not found");
    case "staff":
      throw new DomainError("staff", "Admin accounts do not play: staff cannot enter raffles.");
    case "excluded":
      throw exclusionError(row.excludedUntil!, row.exclusionKind);
    case "jurisdiction":
      throw jurisdictionError();
    case "identity_required":
      throw new DomainError("identity_required", IDENTITY_FIRST_MESSAGE);
    case "raffle_not_found":
      throw new DomainError("raffle_not_found", "Raffle not found");
    case "raffle_closed":
      throw new DomainError("raffle_closed", "This raffle is closed for entries");
    case "raffle_not_open":
      throw new DomainError("raffle_not_open", "This raffle has not started yet");
    case "vip_only":
      throw new DomainError("vip_only", "This raffle is for VIP members only");
    case "over_ticket_cap":
      throw new DomainError("over_ticket_cap", `You can hold at most ${row.cap} tickets in this raffle`);
    case "insufficient_coins":
      throw new DomainError("insufficient_coins", "Insufficient Coins");
    default:
      throw new Error(`enter_raffles answered ${row.outcome}`);
  }
}

/** What tickets cost, in cash and in bonus coins. */
function mixOf(tickets: DrawTicket[]): CoinMix {
  return tickets.reduce((mix, t) => ({ cash: mix.cash + t.cash, bonus: mix.bonus + t.bonus }), { cash: 0n, bonus: 0n });
}

export type DrawOutcome =
  | { raffleId: string; outcome: "completed"; winnerId: string; winningTicket: number; prize: bigint; rake: bigint }
  | { raffleId: string; outcome: "cancelled"; reason: "too_few_players" | "beacon_unavailable"; refunded: number };

/**
 * Draws locked, active raffles inside `tx`, together: a raffle with fewer than two
 * distinct players is cancelled and every ticket refunded; otherwise the provably fair
 * draw picks a ticket, the winner gets the prize, the house the rake. `round` is the
 * beacon round the raffles wait for (their commitment names it): verified, its randomness
 * joins the draw; not had in time, every raffle is cancelled and refunded with its reason.
 * Everything, or nothing, commits. The statements cover the whole batch (app/models/raffles/draw.server.ts).
 */
export async function drawLocked(tx: Tx, raffles: RaffleToDraw[], now: Date, actor: string, round?: BeaconRound): Promise<DrawOutcome[]> {
  if (raffles.length === 0) return [];
  const ids = raffles.map((r) => r.id);
  const ticketsByRaffle = await ticketsOfRaffles(tx, ids);

  type Plan = { raffle: RaffleToDraw; tickets: DrawTicket[]; players: Set<string>; winner?: { userId: string; ticket: number; root: string } };
  const plans: Plan[] = raffles.map((raffle) => {
    const tickets = ticketsByRaffle.get(raffle.id)!;
    const players = new Set(tickets.map((t) => t.userId));
    if (players.size < 2 || round?.ok === false) return { raffle, tickets, players };
    const root = merkleRoot(
      raffle.id,
      tickets.map((t) => ({ position: t.position, ticketId: t.id })),
    );
    const ticket = winningTicket(raffle.seed, raffle.id, root, tickets.length, round?.ok ? round.randomness : null);
    return { raffle, tickets, players, winner: { userId: tickets[ticket]!.userId, ticket, root } };
  });
  const paid = [...new Set(plans.flatMap((p) => (p.winner ? [p.winner.userId] : [...p.players])))];
  const people = new Map((await playersForDraw(tx, paid)).map((p) => [p.id, p]));
  const rakeAccount = await houseAccountId("house_rake", tx);
  const promotionsAccount = await houseAccountId("promotions", tx);
  const pots = await lockPots(tx, ids);

  const transactions: BulkTransaction[] = [];
  const completed: Completed[] = [];
  const cancelled: { id: string; finalPot: bigint; reason: string }[] = [];
  const audits: { actor: string; action: string; target: string; details: unknown }[] = [];
  const events: GameEvent[] = [];
  const outcomes: DrawOutcome[] = [];
  // What each winner and each refunded player is told on their next page.
  const notices: OutcomeNoticeRow[] = [];
  for (const { raffle, tickets, players, winner } of plans) {
    const pot = pots.get(raffle.id)!;
    const staked = mixOf(tickets);
    if (pot.cash.balance !== staked.cash || pot.bonus.balance !== staked.bonus) {
      throw new Error(`raffle ${raffle.id}: pots ${pot.cash.balance}+${pot.bonus.balance} do not match its tickets' ${staked.cash}+${staked.bonus}`);
    }
    const potTotal = pot.cash.balance + pot.bonus.balance;
    if (!winner) {
      // Each ticket goes back in its own mix.
      for (const userId of players) {
        const theirs = tickets.filter((t) => t.userId === userId);
        const back = mixOf(theirs);
        const person = people.get(userId)!;
        notices.push({ userId, raffleId: raffle.id, outcome: "refunded", amount: back.cash + back.bonus, tickets: theirs.length });
        transactions.push({
          kind: "refund",
          reference: `refund:${raffle.id}:${userId}`,
          userId,
          raffleId: raffle.id,
          postings: nonZero([
            { accountId: pot.cash.id, amount: -back.cash },
            { accountId: person.account, amount: back.cash },
            { accountId: pot.bonus.id, amount: -back.bonus },
            { accountId: person.bonusAccount, amount: back.bonus },
          ]),
        });
      }
      const reason = round?.ok === false ? round.reason : "fewer than two players";
      cancelled.push({ id: raffle.id, finalPot: potTotal, reason });
      // An empty round the clock ended decided nothing: counted (metrics), not logged.
      if (tickets.length > 0 || actor !== "system")
        audits.push({
          actor,
          action: "raffle.cancel",
          target: `raffle:${raffle.id}`,
          details: {
            reason,
            refundedTickets: tickets.length,
            pot: potTotal.toString(),
            cash: pot.cash.balance.toString(),
            bonus: pot.bonus.balance.toString(),
          },
        });
      events.push({ type: "drawn", raffleId: raffle.id, kind: raffle.kind, outcome: "cancelled", drawnAt: now.toISOString() });
      outcomes.push({
        raffleId: raffle.id,
        outcome: "cancelled",
        reason: round?.ok === false ? "beacon_unavailable" : "too_few_players",
        refunded: tickets.length,
      });
      continue;
    }
    const person = people.get(winner.userId)!;
    // Half the pot to the winner and half to the house, each in the pot's own mix (the house's
    // bonus coins go back to promotions); the VIP extra is bonus from promotions.
    const split = splitPotMix({ cash: pot.cash.balance, bonus: pot.bonus.balance }, winMultiplierTenths(activeVipTier(person, now)));
    const prize = split.prize.cash + split.prize.bonus + split.extra;
    const rake = split.rake.cash + split.rake.bonus;
    const postings = nonZero([
      { accountId: pot.cash.id, amount: -pot.cash.balance },
      { accountId: person.account, amount: split.prize.cash },
      { accountId: rakeAccount, amount: split.rake.cash },
      { accountId: pot.bonus.id, amount: -pot.bonus.balance },
      { accountId: person.bonusAccount, amount: split.prize.bonus + split.extra },
      { accountId: promotionsAccount, amount: split.rake.bonus - split.extra },
    ]);
    transactions.push({ kind: "prize", reference: `draw:${raffle.id}`, userId: winner.userId, raffleId: raffle.id, postings });
    notices.push({
      userId: winner.userId,
      raffleId: raffle.id,
      outcome: "won",
      amount: prize,
      tickets: tickets.filter((t) => t.userId === winner.userId).length,
    });
    const drawn = { id: raffle.id, merkleRoot: winner.root, winningTicket: winner.ticket, winnerId: winner.userId };
    completed.push({ ...drawn, finalPot: potTotal, prize, rake, prizeExtra: split.extra });
    audits.push({
      actor,
      action: "raffle.draw",
      target: `raffle:${raffle.id}`,
      details: {
        winnerId: winner.userId,
        winningTicket: winner.ticket,
        merkleRoot: winner.root,
        ...(round?.ok ? { beaconRound: round.round, beaconSignature: round.signature } : {}),
        pot: potTotal.toString(),
        prize: prize.toString(),
        prizeCash: split.prize.cash.toString(),
        prizeBonus: split.prize.bonus.toString(),
        prizeExtra: split.extra.toString(),
        rake: rake.toString(),
        rakeCash: split.rake.cash.toString(),
        rakeBonus: split.rake.bonus.toString(),
      },
    });
    const drawnEvent = {
      type: "drawn",
      raffleId: raffle.id,
      kind: raffle.kind,
      outcome: "completed",
      drawnAt: now.toISOString(),
      winner: displayName(person),
      prize: coinsToDecimal(prize),
      winningTicket: winner.ticket,
    } as const;
    events.push(person.isDemo ? { ...drawnEvent, winnerIsDemo: true } : drawnEvent);
    outcomes.push({ raffleId: raffle.id, outcome: "completed", winnerId: winner.userId, winningTicket: winner.ticket, prize, rake });
  }
  // The raffles' own rows, notices and messages first; the rows other draws, entries and
  // rewards share are locked last, so that two batches wait on each other only for the
  // postings and the commit.
  await markCompleted(tx, completed, now, round?.ok ? round.signature : null);
  await markCancelled(tx, cancelled, now);
  // The notices before the events: their players' cached sessions are forgotten (at commit)
  // before a page hears the notice event and asks for its news.
  await insertOutcomeNotices(tx, notices);
  // The winners' messages in the draw's transaction: one statement per batch.
  await insertWinMails(
    tx,
    completed.map((c) => ({ raffleId: c.id, winnerId: c.winnerId, coins: c.prize.toString() })),
  );
  events.push(...noticeEvents(notices.map((n) => n.userId)));
  await recordDraws(
    tx,
    audits,
    events.map((event) => ({ channel: CHANNEL, payload: JSON.stringify(event) })),
  );
  await lockPayoutRows(
    tx,
    completed.map((c) => c.winnerId),
    [...[...people.values()].flatMap((p) => [p.account, p.bonusAccount]), rakeAccount, promotionsAccount],
  );
  await postTransactions(tx, transactions);
  await addWinnings(tx, completed);
  return outcomes;
}

/** The first raffles whose tickets together stay within `tickets`, and always the first. */
function upToTickets(raffles: RaffleToDraw[], tickets: number): RaffleToDraw[] {
  let held = 0;
  for (const [i, raffle] of raffles.entries()) {
    held += raffle.ticketCount ?? 0;
    if (held > tickets && i > 0) return raffles.slice(0, i);
  }
  return raffles;
}

/** Each drawn raffle's outcome with when it ended, for the draw lag (metrics). */
function withEnds({ raffles, outcomes }: { raffles: RaffleToDraw[]; outcomes: DrawOutcome[] }) {
  const ends = new Map(raffles.map((raffle) => [raffle.id, raffle.endsAt]));
  return outcomes.map((o) => ({ ...o, endsAt: ends.get(o.raffleId) }));
}

/**
 * Draws every due raffle, up to `batchSize` raffles and `batchTickets` tickets per
 * transaction (a batch holds its tickets in memory; at least one raffle however many it
 * has) and `workers` transactions at a time (raffles another drawer holds are skipped, so
 * any number of instances may run this); returns what was drawn. A crash mid-draw
 * (`afterClaim` throwing, in tests) rolls its batch back: the next pass draws it, once.
 * Raffles that wait for a beacon round are drawn once their round is fetched and verified
 * (one fetch per round for all of them), or cancelled when it cannot be by its deadline.
 * Meanwhile they stay active past their end, and this pass leaves them: no lock or connection
 * is held while a round is awaited, unless `waitForBeacons` (tests) makes it wait for them.
 */
export async function drawDueRaffles(
  now = new Date(),
  options: Partial<Batches> & { waitForBeacons?: boolean; source?: BeaconSource } = {},
): Promise<DrawOutcome[]> {
  const { waitForBeacons = false, source = beacon(), ...given } = options;
  const batches: Batches = { batchSize: 500, batchTickets: 50_000, workers: 3, ...given };
  const outcomes = await drawBatches(now, batches);
  for (const due of await dueBeaconRounds(now)) {
    const round = waitForBeacons ? await source.get(due.chain, due.round) : source.peek(due.chain, due.round);
    if (round) outcomes.push(...(await drawBatches(now, batches, { chain: due.chain.hash, round })));
  }
  return outcomes;
}

type Batches = { batchSize: number; batchTickets: number; workers: number; afterClaim?: () => void };

async function drawBatches(now: Date, batches: Batches, beaconRound?: { chain: string; round: BeaconRound }): Promise<DrawOutcome[]> {
  const { batchSize, batchTickets, workers, afterClaim } = batches;
  const outcomes: DrawOutcome[] = [];
  const claim = beaconRound ? { chain: beaconRound.chain, round: beaconRound.round.round } : undefined;
  const worker = async () => {
    for (;;) {
      const drawn = await db().$transaction(
        async (tx) => {
          const claimed = await claimDueRaffles(tx, now, batchSize, claim);
          if (claimed.length > 0) afterClaim?.();
          // Raffles past the batch's tickets stay locked until it commits: the next batch draws them.
          const raffles = upToTickets(claimed, batchTickets);
          return { claimed: claimed.length, raffles, outcomes: await drawLocked(tx, raffles, now, "system", beaconRound?.round) };
        },
        { timeout: 30_000 },
      );
      if (drawn.claimed > 0) wake();
      countDraws(withEnds(drawn));
      outcomes.push(...drawn.outcomes);
      if (drawn.claimed < batchSize && drawn.raffles.length === drawn.claimed) return;
    }
  };
  await Promise.all(Array.from({ length: workers }, worker));
  return outcomes;
}
