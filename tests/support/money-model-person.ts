/**
 * The money model's commands for the person behind an account (issue 31, item 3): a
 * self-exclusion, and closing the account and signing up again with the same email. The
 * exclusion outlives the account (a sign-up meanwhile is refused, nothing created), a break
 * comes back with the new account, and welcome coins are given once per person.
 */
import { expect } from "vitest";
import { getEnv } from "~/infra/env.server";
import { db } from "~/models/db.server";
import { CLOSE_WORD, closeAccount } from "~/services/accounts/account-closure.server";
import { AccountError, signUp } from "~/services/accounts/sign-up.server";
import { excludeSelf } from "~/services/play-safety/responsible-play.server";
import { DEMO_WELCOME_COINS } from "~/services/rewards/rewards.server";
import { createTestUser } from "./factories";
import { DAY, expectCode, outcome, pick, refundTickets, type Command, type Model, type Player } from "./money-model";

const SIX_MONTHS = 183 * DAY;
const PASSWORD = "a long model password 31";

/** A six-month self-exclusion: every ticket in a raffle not yet drawn comes back at once. */
export class SelfExclude implements Command {
  constructor(readonly player: number) {}
  check = () => true;
  async run(m: Model) {
    const p = pick(m.players, this.player);
    const until = new Date(m.now.getTime() + SIX_MONTHS);
    const result = await outcome(() => excludeSelf(p.id, "6m", m.now));
    expectCode(result, p.excludedUntil && p.excludedUntil > until ? "excluded" : "ok", "self-exclusion");
    if (!("value" in result)) return;
    for (const r of m.raffles.filter((x) => x.status === "active")) {
      refundTickets(
        m,
        r.tickets.filter((t) => t.userId === p.id),
      );
      r.tickets = r.tickets.filter((t) => t.userId !== p.id);
    }
    p.excludedUntil = until;
    p.selfExcluded = true;
  }
  toString = () => `selfExclude(p${this.player})`;
}

let signUps = 0;

/** Closes the player's account and signs up again with its email. */
export class CloseAndReturn implements Command {
  constructor(readonly player: number) {}
  check = () => true;
  async run(m: Model) {
    const p = pick(m.players, this.player);
    const result = await outcome(() => closeAccount(p.id, { typed: CLOSE_WORD, password: PASSWORD }, m.now));
    const open = m.raffles.filter((r) => r.status === "active");
    const cashInTickets = open.flatMap((r) => r.tickets).reduce((sum, t) => sum + (t.userId === p.id ? t.cash : 0n), 0n);
    const inProgress = m.withdrawals.some((w) => w.userId === p.id && (w.status === "pending" || w.status === "processing"));
    expectCode(result, inProgress || p.hold > 0n || p.cash + cashInTickets > 0n ? "closure_refused" : "ok", "closure");
    if (!("value" in result)) return;
    for (const r of open) {
      refundTickets(
        m,
        r.tickets.filter((t) => t.userId === p.id),
      );
      r.tickets = r.tickets.filter((t) => t.userId !== p.id);
    }
    p.bonus = 0n; // forfeited to promotions
    m.closed.push(p);

    signUps += 1;
    const input = { email: p.email, password: PASSWORD, dateOfBirth: new Date("1990-01-01"), country: "IE", acceptTerms: true };
    let userId: string;
    try {
      userId = await signUp(input, { ip: `10.31.${signUps % 250}.${Math.floor(signUps / 250) % 250}`, now: m.now });
    } catch (error) {
      if (!(error instanceof AccountError)) throw error;
      expect(p.selfExcluded && p.excludedUntil! > m.now, `sign-up refused: ${error.message}`).toBe(true);
      expect(error.status).toBe(403);
      expect(await db().user.count({ where: { email: p.email } })).toBe(0);
      // The person stays away; someone new takes their seat in the model.
      const stranger = await createTestUser();
      m.players[m.players.indexOf(p)] = { ...fresh(stranger), welcomed: false, excludedUntil: null };
      return;
    }
    expect(p.selfExcluded && p.excludedUntil! > m.now, "a sign-up during a self-exclusion is refused").toBe(false);
    const welcome = !p.welcomed && getEnv().demoMode ? DEMO_WELCOME_COINS : 0n;
    const breakRuns = p.excludedUntil !== null && p.excludedUntil > m.now;
    const user = await db().user.findUniqueOrThrow({ where: { id: userId }, select: { excludedUntil: true, exclusionKind: true } });
    expect(user).toEqual({ excludedUntil: breakRuns ? p.excludedUntil : null, exclusionKind: breakRuns ? "break" : null });
    m.players[m.players.indexOf(p)] = { ...fresh({ id: userId, email: p.email }), bonus: welcome, excludedUntil: breakRuns ? p.excludedUntil : null };
  }
  toString = () => `closeAndReturn(p${this.player})`;
}

/** A player with nothing yet: no coins, no VIP, no history. */
function fresh({ id, email }: { id: string; email: string }): Player {
  return {
    id,
    email,
    welcomed: true,
    cash: 0n,
    bonus: 0n,
    hold: 0n,
    vipTier: null,
    vipExpiry: null,
    lastSpinAt: null,
    claimedDays: new Set(),
    excludedUntil: null,
    selfExcluded: false,
    verified: false,
    flagged: false,
  };
}
