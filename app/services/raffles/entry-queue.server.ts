import { remember } from "@epic-web/remember";
import { enterRaffles, type EntryRequest, type EntryRow } from "~/models/raffles/raffle.server";
import { PLAY_IDLE_GAP_MS } from "~/services/accounts/sessions.server";
import { getEnv } from "~/infra/env.server";
import { wake } from "~/infra/listener.server";
import * as readModel from "~/infra/read-model.server";
import { countriesVerifyingBeforeEntry, placesServed } from "~/shared/jurisdictions";
import { entryLimit } from "../system/rate-limit.server";

/**
 * Entries travel to the database in batches: while one batch is in the database, new
 * entries wait, and then all of them go together as the next batch. One player alone
 * gets no delay (a batch of one leaves at once); under load many entries share one
 * statement and one commit instead of queueing one by one on a hot raffle's row lock
 * (docs/decisions/009-entries-and-draws-in-bulk.md).
 */
const MAX_BATCH = 256;

type Waiting = { request: EntryRequest; resolve: (row: EntryRow) => void; reject: (error: unknown) => void };

function queue() {
  return remember("raffle:entry-queue", (): { waiting: Waiting[]; busy: boolean } => ({ waiting: [], busy: false }));
}

export function submitEntry(request: EntryRequest): Promise<EntryRow> {
  return new Promise((resolve, reject) => {
    queue().waiting.push({ request, resolve, reject });
    void drain();
  });
}

async function drain(): Promise<void> {
  const q = queue();
  if (q.busy) return;
  q.busy = true;
  try {
    while (q.waiting.length > 0) {
      const batch = q.waiting.splice(0, MAX_BATCH);
      await run(batch);
    }
  } finally {
    q.busy = false;
  }
}

async function run(batch: Waiting[]): Promise<void> {
  try {
    const limit = entryLimit();
    const listChanges = readModel.listChangesNow();
    const rows = await enterRaffles(
      batch.map((w) => w.request),
      {
        limitName: limit.name,
        limitMax: limit.max,
        playIdleGapMs: PLAY_IDLE_GAP_MS,
        ...placesServed(getEnv().ALLOWED_COUNTRIES),
        verifyCountries: countriesVerifyingBeforeEntry(),
      },
    );
    wake(); // every instance reads the batch's pots and entrants now
    // Before any answer: the entrant's next page, on this instance, shows the pot they moved
    // and their tickets.
    readModel.ticketsChanged(rows.flatMap((row) => (row.entrantId ? [row.entrantId] : [])));
    rows.forEach(({ outcome, raffleKind: kind, rafflePot: pot, raffleTickets: ticketCount, rafflePlayers: playerCount }, i) => {
      if (outcome !== "ok" || kind === null || pot === null || ticketCount === null || playerCount === null) return;
      readModel.potMoved({ kind, raffleId: batch[i]!.request.raffleId.toLowerCase(), pot, ticketCount, playerCount }, listChanges);
    });
    batch.forEach((waiting, i) => waiting.resolve(rows[i]!));
  } catch (error) {
    // An unexpected failure rolls back the whole batch: retry each entry alone, so it
    // fails only the entry that caused it.
    if (batch.length === 1) {
      batch[0]!.reject(error);
      return;
    }
    for (const waiting of batch) await run([waiting]);
  }
}
