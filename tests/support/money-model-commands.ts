/**
 * fast-check commands over the money model (money-model.ts): each predicts its outcome
 * (which error, how many coins where) from the model, runs the real service on real
 * PostgreSQL, updates the model, and then the whole database is checked against it.
 */
import fc from "fast-check";
import { expect } from "vitest";
import { getEnv } from "~/infra/env.server";
import { DEMO_DECLINED_CARD, DEMO_SUCCESS_CARD, demoProvider } from "~/infra/payment-providers/demo-provider.server";
import { priceCoins, priceVip, VIP_PERIOD_DAYS } from "~/services/money/payments/pricing.server";
import { settlePayment } from "~/services/money/payments/settle.server";
import { startPayment } from "~/services/money/payments/start.server";
import { completeRaffleEarly } from "~/services/raffles/early-completion.server";
import { drawDueRaffles, enterRaffle, type DrawOutcome } from "~/services/raffles/raffles.server";
import { excludeSelf } from "~/services/play-safety/responsible-play.server";
import { claimVipDailyBonus, SPIN_INTERVAL_MS, spinWheel, utcDay } from "~/services/rewards/rewards.server";
import { activeVipTier, VIP_TIERS, type VipTierName } from "~/shared/vip";
import {
  addRaffle,
  applyDraw,
  checkAgainstModel,
  DAY,
  expectCode,
  isExcluded,
  isVip,
  outcome,
  pick,
  refundTickets,
  type Command,
  type Model,
  type Payment,
  type Real,
} from "./money-model";
import { Approve, RecordTransfer, Reject, VerifyIdentity, Withdraw } from "./money-model-payouts";
import { CloseAndReturn, SelfExclude } from "./money-model-person";
import { DisputeWon, Refund } from "./money-model-disputes";

class Deposit implements Command {
  constructor(
    readonly player: number,
    readonly pkg: string,
    readonly declined: boolean,
  ) {}
  check = () => true;
  async run(m: Model) {
    // Each payment is made a moment after the last: refunds go to the newest payment first,
    // and payments are told apart by when they were made.
    m.now = new Date(m.now.getTime() + 1);
    const p = pick(m.players, this.player);
    const product = this.pkg.startsWith("package_") ? priceCoins(this.pkg)! : priceVip(this.pkg)!;
    const started = await outcome(() => startPayment(p.id, product, m.now));
    if (isExcluded(p, m.now)) return expectCode(started, "excluded", "a deposit during a break");
    // Buying VIP again extends or moves up: a lower tier than the one running is refused.
    const held = activeVipTier(p, m.now);
    if (product.purpose === "vip" && held && vipTiers.indexOf(held) > vipTiers.indexOf(product.product as VipTierName)) {
      return expectCode(started, "vip_downgrade", "a lower VIP tier while a higher one runs");
    }
    if (started.code !== "ok" || !("value" in started)) throw new Error(`deposit refused: ${started.code}`);
    const { paymentId } = started.value;
    await demoProvider.payWithTestCard(paymentId, this.declined ? DEMO_DECLINED_CARD : DEMO_SUCCESS_CARD);
    const settlement = await settlePayment(paymentId, m.now);
    if (this.declined) {
      expect(settlement.status).toBe("failed");
      m.payments.push({ ...paid(paymentId, p.id, product), status: "failed" });
      return;
    }
    if (product.purpose === "coins") {
      const tier = activeVipTier(p, m.now);
      const coins = product.coins + (tier ? (product.coins * BigInt(VIP_TIERS[tier].bonusPercent)) / 100n : 0n);
      expect(settlement).toEqual({ status: "succeeded", purpose: "coins", coins, product: product.product });
      // The cents paid are cash; the rest of the package and any VIP bonus are bonus.
      const credited = { cash: BigInt(product.amountCents), bonus: coins - BigInt(product.amountCents) };
      p.cash += credited.cash;
      p.bonus += credited.bonus;
      m.payments.push({ ...paid(paymentId, p.id, product), credited, status: "succeeded" });
    } else {
      const from = p.vipExpiry && p.vipExpiry > m.now ? p.vipExpiry : m.now;
      p.vipExpiry = new Date(from.getTime() + VIP_PERIOD_DAYS * DAY);
      p.vipTier = product.product;
      expect(settlement).toEqual({ status: "succeeded", purpose: "vip", tier: product.product, vipExpiry: p.vipExpiry });
      m.payments.push({ ...paid(paymentId, p.id, product), status: "succeeded" });
    }
  }
  toString = () => `deposit(p${this.player}, ${this.pkg}${this.declined ? ", declined" : ""})`;
}

function paid(id: string, userId: string, product: { purpose: "coins" | "vip"; amountCents: number }): Omit<Payment, "status"> {
  return { id, userId, purpose: product.purpose, amountCents: product.amountCents, credited: { cash: 0n, bonus: 0n }, refundedCents: 0, disputedCents: 0 };
}

class Enter implements Command {
  constructor(
    readonly player: number,
    readonly raffle: number,
    readonly tickets: number,
  ) {}
  check = () => true;
  async run(m: Model) {
    const p = pick(m.players, this.player);
    const r = pick(m.raffles, this.raffle);
    const result = await outcome(() => enterRaffle({ userId: p.id, raffleId: r.id, tickets: this.tickets, now: m.now }));
    const held = r.tickets.filter((t) => t.userId === p.id).length;
    const cost = r.entryPrice * BigInt(this.tickets);
    const expected = isExcluded(p, m.now)
      ? "excluded"
      : r.status !== "active" || m.now >= r.endsAt
        ? "raffle_closed"
        : m.now < r.startsAt
          ? "raffle_not_open"
          : r.vipOnly && !isVip(p, m.now)
            ? "vip_only"
            : held + this.tickets > r.cap
              ? "over_ticket_cap"
              : cost > p.cash + p.bonus
                ? "insufficient_coins"
                : "ok";
    expectCode(result, expected, "entry");
    if (expected !== "ok" || !("value" in result)) return;
    expect(result.value).toMatchObject({
      cost,
      balance: p.cash + p.bonus - cost,
      positions: Array.from({ length: this.tickets }, (_, i) => r.tickets.length + i),
    });
    // Bonus coins first, ticket by ticket, then cash.
    for (let i = 0; i < this.tickets; i++) {
      const bonus = p.bonus < r.entryPrice ? p.bonus : r.entryPrice;
      p.bonus -= bonus;
      p.cash -= r.entryPrice - bonus;
      r.tickets.push({ userId: p.id, cash: r.entryPrice - bonus, bonus });
    }
  }
  toString = () => `enter(p${this.player}, r${this.raffle}, ${this.tickets})`;
}

class OpenRaffle implements Command {
  constructor(readonly r: { startOffsetMs: number; durationMs: number; entryPrice: bigint; vipOnly: boolean; cap: number }) {}
  check = (m: Readonly<Model>) => m.raffles.length < 8;
  async run(m: Model) {
    await addRaffle(m, this.r);
  }
  toString = () => `open(+${this.r.startOffsetMs}ms for ${this.r.durationMs}ms, ${this.r.entryPrice}c, cap ${this.r.cap}${this.r.vipOnly ? ", VIP" : ""})`;
}

class Advance implements Command {
  constructor(readonly ms: number) {}
  check = (m: Readonly<Model>) => m.now.getTime() + this.ms <= m.end.getTime();
  async run(m: Model) {
    m.now = new Date(m.now.getTime() + this.ms);
  }
  toString = () => `advance(${this.ms}ms)`;
}

/** The scheduler's pass: every raffle whose end has come is drawn (or cancelled below two players). */
class DrawDue implements Command {
  check = () => true;
  async run(m: Model) {
    const outcomes = await drawDueRaffles(m.now);
    const due = m.raffles.filter((r) => r.status === "active" && r.endsAt <= m.now);
    expect(outcomes.map((o) => o.raffleId).sort()).toEqual(due.map((r) => r.id).sort());
    for (const r of due)
      applyDraw(
        m,
        r,
        outcomes.find((o) => o.raffleId === r.id)!,
      );
  }
  toString = () => "drawDue()";
}

class CompleteEarly implements Command {
  constructor(
    readonly admin: number,
    readonly raffle: number,
  ) {}
  check = () => true;
  async run(m: Model) {
    const r = pick(m.raffles, this.raffle);
    const result = await completeRaffleEarly(r.id, pick(m.admins, this.admin), m.now);
    if (r.status !== "active") return expect(result).toBeUndefined();
    applyDraw(m, r, result as DrawOutcome); // without a beacon, drawn at once
  }
  toString = () => `completeEarly(r${this.raffle})`;
}

class Spin implements Command {
  constructor(readonly player: number) {}
  check = () => true;
  async run(m: Model) {
    const p = pick(m.players, this.player);
    const result = await outcome(() => spinWheel(p.id, m.now));
    const expected = isExcluded(p, m.now) ? "excluded" : p.lastSpinAt && m.now.getTime() - p.lastSpinAt.getTime() < SPIN_INTERVAL_MS ? "spin_not_ready" : "ok";
    expectCode(result, expected, "spin");
    if (!("value" in result)) return;
    expect(getEnv().SPIN_WHEEL_WEIGHTS.map((s) => s.reward)).toContain(result.value.reward);
    p.bonus += result.value.reward;
    p.lastSpinAt = m.now;
  }
  toString = () => `spin(p${this.player})`;
}

class ClaimVipBonus implements Command {
  constructor(readonly player: number) {}
  check = () => true;
  async run(m: Model) {
    const p = pick(m.players, this.player);
    const result = await outcome(() => claimVipDailyBonus(p.id, m.now));
    const day = utcDay(m.now).getTime();
    const tier = activeVipTier(p, m.now);
    const expected = isExcluded(p, m.now) ? "excluded" : !tier ? "not_vip" : p.claimedDays.has(day) ? "already_claimed" : "ok";
    expectCode(result, expected, "VIP bonus");
    if (!("value" in result) || !tier) return;
    expect(result.value.amount).toBe(BigInt(VIP_TIERS[tier].dailyCoins));
    p.bonus += result.value.amount;
    p.claimedDays.add(day);
  }
  toString = () => `claimVipBonus(p${this.player})`;
}

/** A 24-hour break: every ticket in a raffle not yet drawn comes back at once. */
class TakeBreak implements Command {
  constructor(readonly player: number) {}
  check = () => true;
  async run(m: Model) {
    const p = pick(m.players, this.player);
    const until = new Date(m.now.getTime() + DAY);
    const result = await outcome(() => excludeSelf(p.id, "24h", m.now));
    expectCode(result, p.excludedUntil && p.excludedUntil > until ? "excluded" : "ok", "break");
    if (!("value" in result)) return;
    let refunded = 0;
    for (const r of m.raffles.filter((x) => x.status === "active")) {
      refunded += refundTickets(
        m,
        r.tickets.filter((t) => t.userId === p.id),
      );
      r.tickets = r.tickets.filter((t) => t.userId !== p.id);
    }
    expect(result.value.refunded).toBe(refunded);
    p.excludedUntil = until;
  }
  toString = () => `takeBreak(p${this.player})`;
}

/** Runs a command, then checks the whole database against the model. */
class Checked implements Command {
  constructor(readonly command: Command) {}
  check = (m: Readonly<Model>) => this.command.check(m);
  async run(m: Model, real: Real) {
    await this.command.run(m, real);
    await checkAgainstModel(m);
  }
  toString = () => this.command.toString();
}

// ---- generation ----
const player = fc.nat({ max: 2 });
const index = fc.nat({ max: 7 });
const vipTiers = Object.keys(VIP_TIERS) as VipTierName[];

const weighted = (weight: number, arbitrary: fc.Arbitrary<Command>) => ({ weight, arbitrary: arbitrary.map((c) => new Checked(c)) });

/** Every command, weighted towards entries (the busiest path) and away from breaks (which stop a player for a day). */
export const commands = [
  fc.oneof(
    weighted(
      2,
      fc.tuple(player, fc.constantFrom("package_1", "package_2", "package_4", ...vipTiers), fc.boolean()).map(([p, pkg, d]) => new Deposit(p, pkg, d)),
    ),
    weighted(
      2,
      fc
        .tuple(index, fc.constantFrom("refund" as const, "dispute" as const), fc.boolean(), fc.boolean())
        .map(([i, reason, half, again]) => new Refund(i, reason, half, again)),
    ),
    weighted(
      2,
      fc.tuple(index, fc.boolean()).map(([i, fresh]) => new DisputeWon(i, fresh)),
    ),
    weighted(
      7,
      fc.tuple(player, index, fc.integer({ min: 1, max: 4 })).map(([p, r, n]) => new Enter(p, r, n)),
    ),
    weighted(
      2,
      fc
        .record({
          startOffsetMs: fc.constantFrom(-1000, 5 * 60_000),
          durationMs: fc.constantFrom(60_000, 20 * 60_000, 3 * 3_600_000, 2 * 86_400_000),
          entryPrice: fc.constantFrom(5n, 50n, 500n),
          vipOnly: fc.boolean(),
          cap: fc.constantFrom(2, 10),
        })
        .map((r) => new OpenRaffle(r)),
    ),
    weighted(
      2,
      fc.constantFrom(30_000, 30_000, 10 * 60_000, 10 * 60_000, 3_600_000, 25 * 3_600_000).map((ms) => new Advance(ms)),
    ),
    weighted(2, fc.constant(new DrawDue())),
    weighted(
      1,
      fc.tuple(index, index).map(([a, r]) => new CompleteEarly(a, r)),
    ),
    weighted(
      1,
      player.map((p) => new Spin(p)),
    ),
    weighted(
      1,
      player.map((p) => new ClaimVipBonus(p)),
    ),
    // Often enough that one player's requests add up past the thresholds (they count the player).
    weighted(
      5,
      // The first player, often rich and verified (startingCoins), asks most: their payouts reach the second-approver rule.
      fc
        .tuple(fc.constantFrom(0, 0, 1, 2), fc.constantFrom(500n, 1_000n, 2_500n, 6_248n, 12_000n, 26_240n, 26_240n, 60_000n))
        .map(([p, a]) => new Withdraw(p, a)),
    ),
    weighted(
      3,
      fc.tuple(index, index).map(([a, w]) => new Approve(a, w)),
    ),
    weighted(
      1,
      fc.tuple(index, index).map(([a, w]) => new Reject(a, w)),
    ),
    weighted(
      2,
      fc.tuple(index, index, fc.boolean()).map(([a, w, failed]) => new RecordTransfer(a, w, failed)),
    ),
    weighted(
      1,
      player.map((p) => new VerifyIdentity(p)),
    ),
    weighted(
      1,
      player.map((p) => new TakeBreak(p)),
    ),
    weighted(
      2,
      player.map((p) => new SelfExclude(p)),
    ),
    weighted(
      3,
      player.map((p) => new CloseAndReturn(p)),
    ),
  ),
];
