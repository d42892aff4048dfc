import { randomBytes, randomInt } from "node:crypto";
import { markDemoPlayerVerified } from "~/models/accounts/identity-check.server";
import type { RaffleKind } from "~/generated/prisma/client";
import { demoPlayersByEmail } from "~/models/accounts/demo-players.server";
import { userBalance } from "~/models/money/ledger.server";
import { listActiveRaffles } from "~/models/raffles/raffle-board.server";
import { getEnv } from "~/infra/env.server";
import { getLogger } from "~/infra/logger.server";
import { DomainError } from "~/shared/domain-error";
import { AccountError, createUsername, signUp } from "../accounts/sign-up.server";
import { grantDemoCrowdTopUp } from "../rewards/rewards.server";
import { RateLimited } from "../system/rate-limit.server";
import { enterRaffle } from "./raffles.server";

/**
 * The demo crowd: in demo mode only, simulated players, marked demo wherever they
 * are named, sign up through the same services as people, get bonus coins from promotions
 * and enter raffles (every rule checked by enter_raffles, every coin moved by the ledger) at
 * random, human-like pauses, so that a fresh demo has live pots, winners and a leaderboard.
 */
export type CrowdMember = { userId: string; username: string; nextAt: number; busy: boolean };
export type Crowd = { size: number; members: CrowdMember[]; speedup: number; nextSignUpAt: number };

/** A crowd player's address: nobody's (.invalid), the same on every start, so a restart finds them. */
export const crowdEmail = (index: number) => `crowd-${String(index).padStart(2, "0")}@demo-crowd.invalid`;

const NAMES = [
  "Ava",
  "Milo",
  "Nora",
  "Leo",
  "Isla",
  "Finn",
  "Maya",
  "Theo",
  "Zara",
  "Owen",
  "Ruby",
  "Kai",
  "Lena",
  "Jude",
  "Cleo",
  "Ezra",
  "Iris",
  "Noah",
  "Pia",
  "Rafe",
  "Skye",
  "Tom",
  "Vera",
  "Wes",
];
const FLAVOURS = ["Lucky", "Quick", "Sunny", "Happy", "Jolly", "Bold", "Brave", "Cosy"];

/** A name that reads like a player's; the "demo" mark, not the name, says what it is. */
function crowdName(index: number): string {
  const name = NAMES[(index - 1) % NAMES.length]!;
  return `${FLAVOURS[randomInt(FLAVOURS.length)]}${name}${randomInt(10, 100)}`;
}

/** The pause before a crowd player's next action: a few seconds to most of a minute, like a person's. */
export const PAUSE_MS = { min: 6_000, max: 45_000 } as const;
/** A player's first action comes within this long of the start, so a fresh site wakes within a minute. */
export const FIRST_ACTION_MS = 20_000;

function pause(crowd: Crowd, range: { min: number; max: number } = PAUSE_MS): number {
  return Math.ceil(randomInt(range.min, range.max) / crowd.speedup);
}

/** How long the crowd waits before it tries again to sign up the players it is missing. */
const SIGN_UP_RETRY_MS = 10_000;

export function newCrowd(size: number, speedup = getEnv().DEMO_CROWD_SPEEDUP): Crowd {
  return { size, members: [], speedup, nextSignUpAt: 0 };
}

/** Signs up the crowd players that are missing and names them; one that fails is tried again next time. */
export async function ensureCrowd(crowd: Crowd, now = new Date()): Promise<void> {
  if (!getEnv().demoMode) throw new Error("the demo crowd runs in demo mode only");
  const emails = Array.from({ length: crowd.size }, (_, i) => crowdEmail(i + 1));
  const known = new Map(crowd.members.map((m) => [m.userId, m]));
  if (known.size === crowd.size || now.getTime() < crowd.nextSignUpAt) return;
  // A player that cannot be signed up yet (the sign-up limit, a taken name) is tried again later, not every pass.
  crowd.nextSignUpAt = now.getTime() + SIGN_UP_RETRY_MS;
  const existing = new Map((await demoPlayersByEmail(emails)).map((u) => [u.email, u]));
  const allowed = getEnv().ALLOWED_COUNTRIES;
  const country = allowed.countries[0] ?? Object.keys(allowed.regions)[0]!;
  const region = allowed.countries[0] ? undefined : allowed.regions[country]![0];
  for (const [i, email] of emails.entries()) {
    try {
      let user = existing.get(email);
      if (!user) {
        const born = new Date(Date.UTC(1960 + randomInt(40), randomInt(12), 1 + randomInt(28)));
        const userId = await signUp(
          { email, password: randomBytes(24).toString("base64url"), dateOfBirth: born, acceptTerms: true, country, region, isDemo: true },
          { ip: "demo-crowd", now },
        );
        user = { id: userId, email, username: null };
      }
      // Simulated players have no documents: the demo provider counts them checked (ADR 080).
      await markDemoPlayerVerified(email, now);
      if (known.has(user.id)) continue;
      const username = user.username ?? (await createUsername(user.id, crowdName(i + 1), now));
      // Another pass at once (tests run two) may have added the player meanwhile.
      if (crowd.members.some((m) => m.userId === user.id)) continue;
      crowd.members.push({ userId: user.id, username, nextAt: now.getTime() + randomInt(Math.ceil(FIRST_ACTION_MS / crowd.speedup)), busy: false });
    } catch (error) {
      // A name or an address taken (by a real player, or by another start a moment ago), or
      // the sign-up limit: the next pass tries again with another name.
      if (error instanceof AccountError || error instanceof RateLimited) getLogger().debug({ err: error, email }, "demo crowd player not ready yet");
      else throw error;
    }
  }
}

type OpenRaffle = Awaited<ReturnType<typeof listActiveRaffles>>[number] & { kind: RaffleKind };

/** Entries close this long before the end; the crowd leaves the last moments to people. */
const CLOSING_MARGIN_MS = 2_000;

/**
 * Which raffle a crowd player enters: mostly quick rounds, and a round with one player
 * waiting counts four times (it needs a second to be drawn), cheaper ones more often.
 */
export function chooseRaffle(open: OpenRaffle[], balance: bigint): OpenRaffle | undefined {
  const affordable = open.filter((r) => r.entryPrice <= balance);
  if (affordable.length === 0) return undefined;
  const kind: RaffleKind = randomInt(10) < 7 ? "quick" : "regular";
  const pool = affordable.some((r) => r.kind === kind) ? affordable.filter((r) => r.kind === kind) : affordable;
  const weights = pool.map((r) => (r.playerCount === 1 ? 4 : 1) * Math.max(1, Math.round(400 / Number(r.entryPrice))));
  let pick = randomInt(weights.reduce((a, b) => a + b, 0));
  for (const [i, raffle] of pool.entries()) {
    pick -= weights[i]!;
    if (pick < 0) return raffle;
  }
  return pool.at(-1);
}

export type CrowdTick = { entered: number; refused: number; toppedUp: number };

/** What one crowd player does when due: a top-up when low, then (usually) one entry. */
async function act(member: CrowdMember, open: OpenRaffle[], now: Date, done: CrowdTick): Promise<void> {
  let balance = await userBalance(member.userId);
  const cheapest = open.reduce<bigint | undefined>((min, r) => (min === undefined || r.entryPrice < min ? r.entryPrice : min), undefined);
  if (cheapest !== undefined && balance < cheapest * 20n && (await grantDemoCrowdTopUp(member.userId, now))) {
    done.toppedUp += 1;
    balance = await userBalance(member.userId);
  }
  const raffle = chooseRaffle(open, balance);
  if (!raffle) return;
  // Mostly one ticket, sometimes a few, as people do; the raffle's cap is the database's to keep.
  const tickets = randomInt(10) < 8 ? 1 : randomInt(2, 4);
  await enterRaffle({ userId: member.userId, raffleId: raffle.id, kind: raffle.kind, tickets, now });
  done.entered += 1;
}

/**
 * One pass: each crowd player whose pause is over (and who is not acting in another pass)
 * acts once, then pauses again. A refusal (a cap reached, too few coins, a raffle just
 * closed, a break an admin set) is what a person would meet too: the player waits and tries
 * again later.
 */
export async function crowdTick(crowd: Crowd, now = new Date()): Promise<CrowdTick> {
  await ensureCrowd(crowd, now);
  const due = crowd.members.filter((m) => !m.busy && m.nextAt <= now.getTime());
  const done: CrowdTick = { entered: 0, refused: 0, toppedUp: 0 };
  if (due.length === 0) return done;
  for (const member of due) member.busy = true;
  try {
    const kinds: RaffleKind[] = ["quick", "regular"];
    const lists = await Promise.all(kinds.map(async (kind) => (await listActiveRaffles(kind)).map((r) => ({ ...r, kind }))));
    const open = lists.flat().filter((r) => !r.vipOnly && r.startsAt.getTime() <= now.getTime() && r.endsAt.getTime() - now.getTime() > CLOSING_MARGIN_MS);
    for (const member of due) {
      try {
        await act(member, open, now, done);
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        done.refused += 1;
      }
      member.nextAt = now.getTime() + pause(crowd);
    }
  } finally {
    for (const member of due) member.busy = false;
  }
  return done;
}

export type DemoCrowd = { stop: () => Promise<void> };

/** The longest the loop sleeps: a player whose pause ended meanwhile acts at most this late. */
const LOOP_MS = 1_000;

/** Runs the crowd until stopped; a pass never overlaps the last, and stop waits for the running one. */
export function startDemoCrowd(size: number): DemoCrowd {
  const logger = getLogger().child({ component: "demo-crowd" });
  const crowd = newCrowd(size);
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const tick = () => {
    running = crowdTick(crowd)
      .then((done) => {
        if (done.entered || done.toppedUp) logger.debug(done, "demo crowd tick");
      })
      .catch((error: unknown) => logger.error({ err: error }, "demo crowd tick failed"))
      .then(() => {
        const next = Math.min(...crowd.members.map((m) => m.nextAt), Date.now() + LOOP_MS);
        if (!stopped) timer = setTimeout(tick, Math.max(50, Math.min(LOOP_MS, next - Date.now())));
      });
  };
  logger.info({ size }, `demo crowd: ${size} simulated players, marked demo`);
  tick();
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
