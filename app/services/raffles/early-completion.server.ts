import { db } from "~/models/db.server";
import { closeRaffle, holdsTicket, lockRaffle } from "~/models/raffles/raffle.server";
import { beacon } from "~/infra/beacon.server";
import { publish } from "~/infra/events.server";
import { countDraws } from "~/infra/metrics.server";
import { DomainError } from "~/shared/domain-error";
import { drawLocked, type DrawOutcome } from "./raffles.server";

/** An early completion joined to the beacon: closed now, drawn with the round after the close. */
export type ClosedEarly = { raffleId: string; outcome: "closed"; closedAt: Date; beaconRound: number };

/**
 * An admin completing a raffle early. With the beacon, it closes at once (no entry after
 * this transaction, which holds the raffle's lock) and commits to the first round after
 * the close: the draw passes draw it when that round is out, never from the seed alone.
 * A raffle past its end is not moved. Without a beacon (a demo without relays) it is drawn
 * now (at `now`, for tests). Undefined when no longer active.
 */
export async function completeRaffleEarly(raffleId: string, actor: string, now?: Date): Promise<DrawOutcome | ClosedEarly | undefined> {
  const source = beacon();
  // The chain is stored (once a process) before the lock is taken.
  if (source.commits) await source.commitmentFor(new Date());
  const outcome = await db().$transaction(async (tx): Promise<DrawOutcome | ClosedEarly | undefined> => {
    const raffle = await lockRaffle(tx, raffleId);
    if (!raffle) throw new DomainError("raffle_not_found", "Raffle not found");
    if (raffle.status !== "active") return undefined;
    if (raffle.closedAt) throw new DomainError("raffle_closed", `This raffle is already closed: it is drawn with beacon round ${raffle.beaconRound}`);
    // Whoever ends a raffle early must not stand to win it (issue 34): checked under its lock.
    if (await holdsTicket(tx, raffleId, actor)) throw new DomainError("own_account", "You hold a ticket in this raffle: another admin must complete it");
    if (source.commits) {
      // The close's time is taken under the lock, from the real clock: the tickets are fixed
      // from here, before the round (a round after a past moment may be out already).
      const at = new Date();
      // Ended already, it waits for its round, perhaps out by now: moving it would be a re-roll.
      if (raffle.endsAt <= at) throw new DomainError("raffle_closed", "This raffle has ended: it is drawn with the beacon round after its end");
      const commitment = (await source.commitmentFor(at))!;
      await closeRaffle(tx, raffleId, at, commitment);
      // Open pages look again: the card stops taking entries and shows the draw coming.
      await publish(tx, { type: "round", raffleId, kind: raffle.kind, tier: raffle.tier });
      return { raffleId, outcome: "closed", closedAt: at, beaconRound: commitment.round };
    }
    const at = now ?? new Date();
    if (raffle.beaconRound !== null) {
      throw new DomainError("raffle_closed", "This raffle is drawn with a public beacon that is not configured here: it cannot be completed early");
    }
    return (await drawLocked(tx, [raffle], at, actor))[0];
  });
  if (outcome && outcome.outcome !== "closed") countDraws([outcome]);
  return outcome;
}
