import { create } from "xmlbuilder2";
import { feedEvents, type FeedCursor, type FeedRow } from "~/models/fairness/feed.server";
import { coinsToDecimal } from "~/shared/money";
import { readPageCursor, writePageCursor } from "~/shared/page-cursor";
import { TIER_LABELS } from "~/shared/raffle-display";

/**
 * /fair/feed.xml (issue 34): an Atom feed (RFC 4287) of every raffle's commitment
 * when it is made and its result when drawn or cancelled, newest first, paged by rel="next"
 * (RFC 5005), and an admin's early close (its new end and beacon round) when made. Built
 * with xmlbuilder2, which escapes every text and attribute; the facts a watcher checks are
 * in `fair:commitment`, `fair:closed` and `fair:result` elements (FAIR_NS).
 */
export const ATOM_NS = "http://www.w3.org/2005/Atom";
export const FAIR_NS = "urn:raffle-rush:fair:1";
export const FEED_PAGE_SIZE = 50;

const FEED_EVENTS: readonly FeedCursor["event"][] = ["commitment", "closed", "result"];

/** The feed's cursor (a page cursor and the entry's event: "<time>_<raffle id>_<event>" of the last entry listed); undefined when malformed. */
export function readFeedCursor(text: string): FeedCursor | undefined {
  const cut = text.lastIndexOf("_");
  const event = FEED_EVENTS.find((e) => e === text.slice(cut + 1));
  const place = cut > 0 && event ? readPageCursor(text.slice(0, cut)) : undefined;
  return place && event && { at: place.at, raffleId: place.id, event };
}

const cursorOf = (at: Date, raffleId: string, event: string) => `${writePageCursor(at.toISOString(), raffleId)}_${event}`;

function titleOf(row: FeedRow): string {
  const name = `${row.kind === "quick" ? `${row.tier.toUpperCase()} quick raffle` : `${TIER_LABELS[row.tier] ?? row.tier} raffle`} at $${coinsToDecimal(row.entryPrice)}`;
  if (row.event === "commitment") return `Committed: ${name}`;
  if (row.event === "closed") return `Closed early: ${name}`;
  return row.status === "completed" ? `Drawn: ${name}, ticket ${row.winningTicket} won` : `Cancelled: ${name}`;
}

function summaryOf(row: FeedRow): string {
  const beacon =
    row.beaconRound === null
      ? "not joined to a beacon: the seed alone decides it"
      : `joined to beacon round ${row.beaconRound} (due ${new Date(row.roundTimeMs!).toISOString()})`;
  if (row.event === "commitment") return `Seed hash ${row.seedHash}; ends ${row.endsAt.toISOString()}; ${beacon}.`;
  if (row.event === "closed") return `Closed early by an admin at ${row.closedAt!.toISOString()}: no more entries; ${beacon}, the first after the close.`;
  if (row.status === "completed") return `Ticket ${row.winningTicket} of ${row.ticketCount} won; seed ${row.seed}; Merkle root ${row.merkleRoot}; ${beacon}.`;
  return `Cancelled and refunded: ${row.cancelReason ?? "fewer than two players"}.`;
}

/** The facts of the event, as attributes of one element (absent facts are left out). */
function factsOf(row: FeedRow): Record<string, string> {
  const facts: Record<string, string | number | null> = {
    raffle: row.id,
    seedHash: row.seedHash,
    endsAt: row.endsAt.toISOString(),
    beaconChain: row.beaconChain,
    beaconRound: row.beaconRound,
    roundTime: row.roundTimeMs === null ? null : new Date(row.roundTimeMs).toISOString(),
  };
  if (row.closedAt) facts.closedAt = row.closedAt.toISOString();
  if (row.event === "result") {
    Object.assign(facts, {
      status: row.status,
      drawnAt: row.drawnAt!.toISOString(),
      ticketCount: row.ticketCount,
      ...(row.status === "completed"
        ? { seed: row.seed, merkleRoot: row.merkleRoot, winningTicket: row.winningTicket, beaconSignature: row.beaconSignature }
        : { cancelReason: row.cancelReason ?? "fewer than two players" }),
    });
  }
  return Object.fromEntries(Object.entries(facts).flatMap(([key, value]) => (value === null || value === undefined ? [] : [[key, String(value)]])));
}

/** One page of the feed as Atom XML, its links absolute under `origin`. */
export async function fairFeed(origin: string, before?: FeedCursor): Promise<string> {
  const rows = await feedEvents(FEED_PAGE_SIZE + 1, before);
  const page = rows.slice(0, FEED_PAGE_SIZE);
  const feedUrl = `${origin}/fair/feed.xml`;
  const self = before ? `${feedUrl}?before=${encodeURIComponent(cursorOf(before.at, before.raffleId, before.event))}` : feedUrl;
  // Characters XML cannot carry become U+FFFD rather than a document no reader parses.
  const doc = create({ version: "1.0", encoding: "utf-8", invalidCharReplacement: "\uFFFD" });
  const feed = doc.ele(ATOM_NS, "feed").att("http://www.w3.org/2000/xmlns/", "xmlns:fair", FAIR_NS);
  feed.ele(ATOM_NS, "id").txt(feedUrl);
  feed.ele(ATOM_NS, "title").txt("Raffle Rush: commitments and results of every draw");
  feed.ele(ATOM_NS, "subtitle").txt(`Check each result against its commitment and the beacon: ${origin}/fair`);
  feed.ele(ATOM_NS, "updated").txt((page[0]?.at ?? new Date(0)).toISOString());
  feed.ele(ATOM_NS, "author").ele(ATOM_NS, "name").txt("Raffle Rush");
  feed.ele(ATOM_NS, "link").att("rel", "self").att("type", "application/atom+xml").att("href", self);
  feed.ele(ATOM_NS, "link").att("rel", "first").att("type", "application/atom+xml").att("href", feedUrl);
  feed.ele(ATOM_NS, "link").att("rel", "alternate").att("type", "text/html").att("href", `${origin}/fair`);
  const last = page.at(-1);
  if (rows.length > FEED_PAGE_SIZE && last) {
    const next = `${feedUrl}?before=${encodeURIComponent(cursorOf(last.at, last.id, last.event))}`;
    feed.ele(ATOM_NS, "link").att("rel", "next").att("type", "application/atom+xml").att("href", next);
  }
  for (const row of page) {
    const entry = feed.ele(ATOM_NS, "entry");
    entry.ele(ATOM_NS, "id").txt(`${origin}/fair/${row.id}#${row.event}`);
    entry.ele(ATOM_NS, "title").txt(titleOf(row));
    entry.ele(ATOM_NS, "published").txt(row.at.toISOString());
    entry.ele(ATOM_NS, "updated").txt(row.at.toISOString());
    entry.ele(ATOM_NS, "category").att("term", row.event);
    entry.ele(ATOM_NS, "link").att("rel", "alternate").att("type", "text/html").att("href", `${origin}/fair/${row.id}`);
    entry.ele(ATOM_NS, "link").att("rel", "alternate").att("type", "application/json").att("href", `${origin}/api/fair/${row.id}`);
    entry.ele(ATOM_NS, "summary").txt(summaryOf(row));
    const facts = entry.ele(FAIR_NS, `fair:${row.event}`);
    for (const [name, value] of Object.entries(factsOf(row))) facts.att(name, value);
  }
  return doc.end({ prettyPrint: true });
}
