import { DOMParser, type Element } from "@xmldom/xmldom";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/models/db.server";
import { drawDueRaffles, enterRaffle } from "~/services/raffles/raffles.server";
import { call } from "../support/app";
import { createTestRaffle, createTestUser } from "../support/factories";

/** /fair/feed.xml (issue 34, ADR 075), read with a real XML parser (xmldom, strict), not the library that wrote it. */

const ATOM = "http://www.w3.org/2005/Atom";
const FAIR = "urn:raffle-rush:fair:1";
/** Any error of the parser fails the test (its warnings, such as one about U+FFFD, do not): the feed must be well-formed XML. */
const parser = new DOMParser({
  onError: (level, message) => {
    if (level !== "warning") throw new Error(`the feed is not well-formed XML (${level}): ${message}`);
  },
});

const elements = (parent: Element): Element[] => Array.from(parent.childNodes).filter((node): node is Element => node.nodeType === 1);

type Entry = { id: string; title: string; updated: string; event: string; facts: Record<string, string>; links: { rel: string; type: string; href: string }[] };

function atomChildren(parent: Element, name: string): Element[] {
  return elements(parent).filter((child) => child.namespaceURI === ATOM && child.localName === name);
}

function text(parent: Element, name: string): string {
  const [child] = atomChildren(parent, name);
  if (!child) throw new Error(`<${parent.localName}> has no <${name}>`);
  return child.textContent ?? "";
}

/** Parses one page as Atom: checks what RFC 4287 requires of a feed and its entries. */
async function readPage(url: string) {
  const response = await call(url);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("application/atom+xml; charset=utf-8");
  const feed = parser.parseFromString(await response.text(), "application/xml").documentElement!;
  expect([feed.namespaceURI, feed.localName]).toEqual([ATOM, "feed"]);
  for (const required of ["id", "title", "updated"]) expect(atomChildren(feed, required)).toHaveLength(1);
  expect(text(atomChildren(feed, "author")[0]!, "name")).toBe("Raffle Rush");
  const links = atomChildren(feed, "link").map((l) => ({ rel: l.getAttribute("rel"), href: l.getAttribute("href") ?? "" }));
  expect(links.find((l) => l.rel === "self")?.href).toMatch(/^http:\/\/localhost\/fair\/feed\.xml/);
  const entries: Entry[] = atomChildren(feed, "entry").map((entry) => {
    const [facts] = elements(entry).filter((child) => child.namespaceURI === FAIR);
    expect(facts).toBeDefined();
    return {
      id: text(entry, "id"),
      title: text(entry, "title"),
      updated: text(entry, "updated"),
      event: facts!.localName ?? "",
      facts: Object.fromEntries(Array.from(facts!.attributes).map((a) => [a.name, a.value])),
      links: atomChildren(entry, "link").map((l) => ({ rel: l.getAttribute("rel")!, type: l.getAttribute("type")!, href: l.getAttribute("href")! })),
    };
  });
  for (const entry of entries) {
    expect(Number.isNaN(Date.parse(entry.updated))).toBe(false);
    expect(entry.links.map((l) => l.type).sort()).toEqual(["application/json", "text/html"]);
  }
  const next = links.find((l) => l.rel === "next")?.href;
  return { entries, next: next ? next.replace("http://localhost", "") : undefined };
}

async function readAll() {
  const entries: Entry[] = [];
  const pages: number[] = [];
  for (let url: string | undefined = "/fair/feed.xml"; url;) {
    const page = await readPage(url);
    entries.push(...page.entries);
    pages.push(page.entries.length);
    url = page.next;
  }
  return { entries, pages };
}

let completedId = "";
let cancelled: string[] = [];
let open = "";

beforeAll(async () => {
  const endsAt = new Date(Date.now() - 1_000);
  const startsAt = new Date(endsAt.getTime() - 60_000);
  const completed = await createTestRaffle({ startsAt, endsAt, entryPrice: 10n });
  const players = await Promise.all([createTestUser({ coins: 1_000n }), createTestUser({ coins: 1_000n })]);
  for (const [index, player] of players.entries()) {
    await enterRaffle({ userId: player.id, raffleId: completed.id, tickets: index + 1, now: new Date(startsAt.getTime() + 1_000) });
  }
  completedId = completed.id;
  // Enough events for more than one page: each cancelled raffle is a commitment and a result.
  for (let i = 0; i < 30; i++) cancelled.push((await createTestRaffle({ startsAt, endsAt })).id);
  await drawDueRaffles(new Date());
  open = (await createTestRaffle()).id;
  cancelled = cancelled.filter(Boolean);
});

describe("/fair/feed.xml", () => {
  it("lists each raffle's commitment and its result, newest first, over pages linked by rel=next", async () => {
    const { entries, pages } = await readAll();
    expect(pages.length).toBeGreaterThanOrEqual(2);
    expect(pages[0]).toBe(50);
    expect(new Set(entries.map((e) => e.id)).size).toBe(entries.length);
    const times = entries.map((e) => Date.parse(e.updated));
    expect(times).toEqual([...times].sort((a, b) => b - a));

    const of = (raffle: string, event: string) => entries.filter((e) => e.facts.raffle === raffle && e.event === event);
    const drawn = await db().raffle.findUniqueOrThrow({ where: { id: completedId } });
    expect(of(completedId, "commitment")).toHaveLength(1);
    expect(of(completedId, "commitment")[0]!.facts).toEqual({ raffle: completedId, seedHash: drawn.seedHash, endsAt: drawn.endsAt.toISOString() });
    const [result] = of(completedId, "result");
    expect(result!.facts).toMatchObject({
      status: "completed",
      seed: drawn.seed,
      seedHash: drawn.seedHash,
      merkleRoot: drawn.merkleRoot,
      winningTicket: String(drawn.winningTicket),
      ticketCount: "3",
      drawnAt: drawn.drawnAt!.toISOString(),
    });
    expect(result!.title).toContain(`ticket ${drawn.winningTicket} won`);
    expect(result!.links).toContainEqual({ rel: "alternate", type: "application/json", href: `http://localhost/api/fair/${completedId}` });

    for (const id of cancelled) {
      expect(of(id, "commitment")).toHaveLength(1);
      expect(of(id, "result")[0]!.facts).toMatchObject({ status: "cancelled", cancelReason: "fewer than two players" });
      // Never the seed of a raffle that was not drawn.
      expect(of(id, "result")[0]!.facts.seed).toBeUndefined();
    }
    // An open raffle: its commitment, no result, and no seed anywhere.
    expect(of(open, "commitment")).toHaveLength(1);
    expect(of(open, "result")).toHaveLength(0);
    expect(of(open, "commitment")[0]!.facts.seed).toBeUndefined();
    expect(entries.findIndex((e) => e.facts.raffle === open)).toBeLessThan(entries.findIndex((e) => e.facts.raffle === completedId));
  });

  it("escapes what it carries: markup and characters XML cannot hold arrive as text", async () => {
    const reason = `<b>relay</b> & "quotes" ]]> \u0001 é`;
    await db().raffle.update({ where: { id: cancelled[0]! }, data: { cancelReason: reason } });
    const { entries } = await readAll();
    const result = entries.find((e) => e.facts.raffle === cancelled[0] && e.event === "result")!;
    expect(result.facts.cancelReason).toBe(reason.replace("\u0001", "\uFFFD"));
  });

  it("refuses a malformed cursor with a 400 that says what to do", async () => {
    for (const before of ["x", "2026-11-27T10:00:00.000Z_not-a-uuid_result", "0000-01-01T00:00:00.000Z_00000000-0000-0000-0000-000000000000_result"]) {
      const response = await call(`/fair/feed.xml?before=${encodeURIComponent(before)}`);
      expect(response.status).toBe(400);
      expect(await response.text()).toContain('rel="next"');
    }
  });
});
