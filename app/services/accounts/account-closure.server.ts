import * as closure from "~/models/accounts/user-closure.server";
import * as person from "~/models/play-safety/person-control.server";
import { personEmailKey } from "~/infra/person-key.server";
import { identityKeyOf } from "~/models/accounts/identity-check.server";
import { recordAudit } from "~/models/back-office/audit-event.server";
import { db, type Tx } from "~/models/db.server";
import { houseAccountId, lockAccounts, nonZero, postTransaction, userAccountId, userBalances } from "~/models/money/ledger.server";
import { PENDING_PAYMENT_HORIZON_MS } from "~/models/money/payment.server";
import { potAccounts } from "~/models/raffles/raffle.server";
import { DomainError } from "~/shared/domain-error";
import { formatDollars } from "~/shared/money";
import { verifyPassword } from "./password.server";
import { takeTicketsBack } from "../raffles/tickets-taken-back.server";
import * as readModel from "~/infra/read-model.server";

/**
 * Closing an account (docs/decisions/035-closing-an-account.md). Refused while a
 * withdrawal or a card payment is in progress, and while the player holds cash (they
 * withdraw it first). Otherwise, in one transaction: tickets in open raffles are refunded
 * (the path a break takes), bonus coins go back to the promotions account, sessions end
 * and the personal fields are emptied; then the email becomes a tombstone.
 */

/** What the player types when the account has no password (signed in with a provider). */
export const CLOSE_WORD = "CLOSE";

export type Confirmation = { password?: string; typed?: string };

export type Closed = { refundedTickets: number; bonusForfeited: string };

/** The raffles the player held tickets in changed between the read and the locks: start again. */
class RafflesChanged extends Error {}

const ATTEMPTS = 5;

export async function closeAccount(userId: string, confirmation: Confirmation, now = new Date()): Promise<Closed> {
  const account = await closure.accountToClose(userId);
  if (!account || account.closedAt) throw new DomainError("signed_out", "This account is closed.");
  if (account.passwordHash) {
    if (!confirmation.password || !(await verifyPassword(confirmation.password, account.passwordHash))) {
      throw new DomainError("invalid_input", "That password is not right: enter your current password to close the account.");
    }
  } else if (confirmation.typed?.trim().toUpperCase() !== CLOSE_WORD) {
    throw new DomainError("invalid_input", `Type ${CLOSE_WORD} to confirm.`);
  }
  return closeWith(userId, now, { actor: userId, action: "account.close", forfeitCash: false });
}

/**
 * Closes an account a verified date of birth shows is under 18 (ADR 080), once its card
 * payments are refunded: no confirmation, and the cash left (winnings, void for a minor) goes
 * to the house. Refused like any closure while a withdrawal or a payment is in progress.
 */
export async function closeUnderAgeAccount(userId: string, now = new Date()): Promise<Closed> {
  const account = await closure.accountToClose(userId);
  if (!account || account.closedAt) throw new DomainError("signed_out", "This account is closed.");
  return closeWith(userId, now, { actor: "provider", action: "account.close_under_age", forfeitCash: true });
}

type How = { actor: string; action: string; forfeitCash: boolean };

async function closeWith(userId: string, now: Date, how: How): Promise<Closed> {
  for (let attempt = 1; ; attempt++) {
    try {
      const raffleIds = await closure.openRafflesOf(db(), userId);
      const closed = await db().$transaction((tx) => closeLocked(tx, userId, raffleIds, now, how));
      // At once on this instance; the others hear of the deleted sessions from the database.
      readModel.forgetPlayer(userId);
      await closure.tombstonePlayer(userId);
      return closed;
    } catch (error) {
      if (error instanceof RafflesChanged && attempt < ATTEMPTS) continue;
      throw error;
    }
  }
}

async function closeLocked(tx: Tx, userId: string, raffleIds: string[], now: Date, how: How): Promise<Closed> {
  // The order every writer takes: the raffles, the player's row, the ledger accounts.
  await closure.lockRaffles(tx, raffleIds);
  const player = await closure.lockPlayer(tx, userId);
  if (!player || player.closedAt) throw new DomainError("signed_out", "This account is closed.");
  const cashAccount = await userAccountId(tx, userId);
  const bonusAccount = await userAccountId(tx, userId, "user_bonus");
  const holdAccount = await userAccountId(tx, userId, "withdrawal_hold");
  const promotions = await houseAccountId("promotions", tx);
  const pots = await Promise.all(raffleIds.map(async (raffleId) => ({ raffleId, ...(await potAccounts(tx, raffleId)) })));
  const locked = await lockAccounts(tx, [cashAccount, bonusAccount, holdAccount, promotions, ...pots.flatMap((p) => [p.cash, p.bonus])]);
  // An entry that committed before these locks, in a raffle not locked above.
  const stillOpen = await closure.openRafflesOf(tx, userId);
  if (stillOpen.join() !== raffleIds.join()) throw new RafflesChanged();

  if ((await closure.withdrawalsInProgress(tx, userId)) > 0 || locked.get(holdAccount)!.balance > 0n) {
    throw new DomainError("closure_refused", "A withdrawal is in progress: you can close your account once it has completed or failed.");
  }
  if ((await closure.paymentsPending(tx, userId, new Date(now.getTime() - PENDING_PAYMENT_HORIZON_MS))) > 0) {
    throw new DomainError("closure_refused", "A card payment is still being confirmed: you can close your account once it has gone through or failed.");
  }

  let refundedTickets = 0;
  let cashInTickets = 0n;
  for (const pot of pots) {
    const removed = await takeTicketsBack(tx, pot.raffleId, userId);
    if (removed.count === 0) continue;
    refundedTickets += removed.count;
    cashInTickets += removed.cash;
    // Each ticket goes back in its own mix.
    await postTransaction(tx, {
      kind: "refund",
      reference: `closure-refund:${pot.raffleId}:${userId}`,
      userId,
      raffleId: pot.raffleId,
      memo: "account closed",
      postings: nonZero([
        { accountId: pot.cash, amount: -removed.cash },
        { accountId: cashAccount, amount: removed.cash },
        { accountId: pot.bonus, amount: -removed.bonus },
        { accountId: bonusAccount, amount: removed.bonus },
      ]),
    });
  }

  const { cash, bonus } = await userBalances(userId, tx);
  if (cash > 0n && how.forfeitCash) {
    await postTransaction(tx, {
      kind: "forfeit",
      reference: `closure-forfeit-cash:${userId}`,
      userId,
      memo: "account closed: under 18, winnings void",
      postings: [
        { accountId: cashAccount, amount: -cash },
        { accountId: await houseAccountId("house_rake", tx), amount: cash },
      ],
    });
  } else if (cash > 0n) {
    const inTickets = cashInTickets > 0n ? ` (${formatDollars(cashInTickets)} of it in tickets of raffles still open: wait for their draw)` : "";
    throw new DomainError("closure_refused", `You have ${formatDollars(cash)} in cash${inTickets}. Withdraw your cash first, then close your account.`);
  }
  if (bonus > 0n) {
    await postTransaction(tx, {
      kind: "forfeit",
      reference: `closure-forfeit:${userId}`,
      userId,
      memo: "account closed",
      postings: [
        { accountId: bonusAccount, amount: -bonus },
        { accountId: promotions, amount: bonus },
      ],
    });
  }
  // What outlives the account for the person, before closePlayer deletes the limits.
  const { email, ...controls } = await person.accountControls(tx, userId);
  const personKey = personEmailKey(email);
  await person.lockPerson(tx, personKey);
  await person.keepControls(tx, personKey, runningControls(controls, now), now);
  // And under the verified name and date of birth, so another email does not undo them (ADR 080).
  const identityKey = await identityKeyOf(tx, userId);
  if (identityKey) {
    await person.lockPerson(tx, identityKey);
    await person.keepControls(tx, identityKey, runningControls(controls, now), now);
  }
  const ended = await closure.closePlayer(tx, userId, now);
  await recordAudit(tx, {
    actor: how.actor,
    action: how.action,
    target: `user:${userId}`,
    details: { refundedTickets, bonusForfeited: bonus.toString(), sessionsEnded: ended.sessions, identitiesRemoved: ended.identities },
  });
  return { refundedTickets, bonusForfeited: bonus.toLocaleString("en-US") };
}

/** The break or exclusion still running, and the deposit limits (a removal or increase waiting keeps its turn). */
function runningControls(controls: person.PersonControls, now: Date): person.PersonControls {
  const running = controls.excludedUntil !== null && controls.excludedUntil > now;
  return { ...controls, excludedUntil: running ? controls.excludedUntil : null, exclusionKind: running ? controls.exclusionKind : null };
}

/** What the closure page shows before the player confirms. */
export async function closurePreview(userId: string) {
  const [account, balances, openRaffles] = await Promise.all([closure.accountToClose(userId), userBalances(userId), closure.openRafflesOf(db(), userId)]);
  return {
    needsPassword: Boolean(account?.passwordHash),
    cash: formatDollars(balances.cash),
    hasCash: balances.cash > 0n,
    bonus: balances.bonus.toLocaleString("en-US"),
    openRaffles: openRaffles.length,
    closeWord: CLOSE_WORD,
  };
}
