import { execFileSync } from "node:child_process";
import { generateKeyPairSync, sign } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { db } from "~/models/db.server";
import { BeaconSource, setBeacon } from "~/infra/beacon.server";
import { renderMail } from "~/infra/mail/templates";
import { drawDueRaffles, enterRaffle } from "~/services/raffles/raffles.server";
import { receiptMessage } from "~/shared/receipt-verifier.mjs";
import { call, pageText, sessionCookie } from "../support/app";
import { createTestRaffle, createTestUser } from "../support/factories";
import { startLocalBeacon, type LocalBeacon } from "../support/local-beacon";
import { scaled } from "../support/timeouts";

/** Entry receipts (issue 34 item 2, ADR 079): the page, its signed JSON checked offline by the real script, and the email. */

const beacons: LocalBeacon[] = [];
afterEach(() => setBeacon(undefined));
afterAll(async () => {
  await Promise.all(beacons.map((b) => b.close()));
});

const dir = mkdtempSync(path.join(tmpdir(), "receipts-"));
let files = 0;

/** Runs `node scripts/verify-draw.mjs --receipt <file>` on the receipt as a child process, offline. */
function verify(receipt: unknown, extra: string[] = []): { status: number; out: string } {
  const file = path.join(dir, `receipt-${files++}.json`);
  writeFileSync(file, JSON.stringify(receipt));
  try {
    return { status: 0, out: execFileSync(process.execPath, ["scripts/verify-draw.mjs", "--receipt", file, ...extra], { stdio: "pipe" }).toString() };
  } catch (error) {
    const failed = error as { status: number; stdout: Buffer };
    return { status: failed.status, out: failed.stdout.toString() };
  }
}

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const copy = (receipt: Json): Json => structuredClone(receipt);

async function receiptJson(id: string, cookie: string): Promise<Json> {
  const response = await call(`/receipts/${id}/receipt.json`, { cookie });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-disposition")).toBe(`attachment; filename="receipt-${id}.json"`);
  return (await response.json()) as Json;
}

/** A raffle joined to a local beacon that ended a moment ago, entered (before its end) by two players. */
async function endedRaffleWithTwoPlayers() {
  const beacon = await startLocalBeacon({ modes: ["ok"] });
  beacons.push(beacon);
  setBeacon(new BeaconSource({ urls: beacon.urls, chain: beacon.chain, deadlineMs: 5_000, hedgeMs: 200, requestTimeoutMs: 1_000, retryMs: 50 }));
  const endsAt = new Date(Date.now() - 1);
  const startsAt = new Date(endsAt.getTime() - 60_000);
  const raffle = await createTestRaffle({ startsAt, endsAt, entryPrice: 10n });
  // 4 bonus coins and cash: the ticket costs 4 bonus (spent first) and 6 cash.
  const alice = await createTestUser({ coins: 4n, cash: 100n });
  const bob = await createTestUser({ coins: 100n });
  const at = new Date(startsAt.getTime() + 1_000);
  await enterRaffle({ userId: alice.id, raffleId: raffle.id, now: at });
  await enterRaffle({ userId: bob.id, raffleId: raffle.id, tickets: 2, now: at });
  const ticket = await db().entry.findFirstOrThrow({ where: { raffleId: raffle.id, userId: alice.id }, select: { id: true, position: true } });
  return { raffle, alice, bob, ticket };
}

describe("a receipt", () => {
  it(
    "names the raffle, commitment, ticket, price and time; is the player's own only; verifies offline before and after the draw",
    async () => {
      const { raffle, alice, bob, ticket } = await endedRaffleWithTwoPlayers();
      const cookie = await sessionCookie(alice.id);
      const row = await db().raffle.findUniqueOrThrow({ where: { id: raffle.id }, select: { seedHash: true, beaconRound: true } });

      const page = await pageText(await call(`/receipts/${ticket.id}`, { cookie }));
      for (const fact of [raffle.id, row.seedHash, `drand round ${row.beaconRound}`, `#${ticket.position}`, "10 coins: 6 cash + 4 bonus", "Not drawn yet"]) {
        expect(page).toContain(fact);
      }
      expect(page).toContain(`href="/receipts/${ticket.id}/receipt.json"`);
      expect(await pageText(await call("/history?type=entries", { cookie }))).toContain(`/receipts/${ticket.id}`);

      // Another player's ticket, an unknown id and a malformed one: 404, page and JSON alike.
      const bobCookie = await sessionCookie(bob.id);
      for (const url of [
        `/receipts/${ticket.id}`,
        `/receipts/${ticket.id}.json`,
        `/receipts/${ticket.id}?format=json`,
        `/receipts/${ticket.id}/receipt.json`,
      ]) {
        expect((await call(url, { cookie: bobCookie })).status).toBe(404);
      }
      expect((await call("/receipts/00000000-0000-4000-8000-000000000000", { cookie })).status).toBe(404);
      expect((await call("/receipts/not-a-ticket.json", { cookie })).status).toBe(404);
      expect((await call("/receipts/not-a-ticket/receipt.json", { cookie })).status).toBe(404);

      const before = await receiptJson(ticket.id, cookie);
      expect(before).toMatchObject({
        receiptId: ticket.id,
        status: "drawing",
        raffle: { id: raffle.id, entryPrice: 10 },
        commitment: { seedHash: row.seedHash, beacon: { round: Number(row.beaconRound) } },
        tickets: [{ position: ticket.position, ticketId: ticket.id }],
        paid: { coins: 10, cash: 6, bonus: 4 },
        inclusion: { final: false, listSize: 3 },
        draw: null,
      });
      expect(JSON.stringify(before)).not.toContain('"seed":');
      // The short forms lead to the download.
      for (const url of [`/receipts/${ticket.id}.json`, `/receipts/${ticket.id}?format=json`]) {
        const response = await call(url, { cookie });
        expect([response.status, response.headers.get("location")]).toEqual([302, `/receipts/${ticket.id}/receipt.json`]);
      }
      const checked = verify(before);
      expect(checked.out).toContain("(before the draw)");
      expect(checked.out).toContain("VERIFIED");
      expect(checked.status).toBe(0);
      const key = ((await pageText(await call("/fair"))).match(/data-testid="receipt-key"[^>]*>([0-9a-f]{64})</) ?? [])[1];
      expect(key).toBe(before.signature.publicKey);
      expect(verify(before, ["--key", key!]).status).toBe(0);

      const [outcome] = await drawDueRaffles(new Date(), { waitForBeacons: true });
      expect(outcome).toMatchObject({ outcome: "completed" });
      const after = await receiptJson(ticket.id, cookie);
      const drawn = await db().raffle.findUniqueOrThrow({ where: { id: raffle.id }, select: { merkleRoot: true, winningTicket: true, seed: true } });
      expect(after).toMatchObject({
        status: "drawn",
        inclusion: { final: true, listSize: 3, listRoot: drawn.merkleRoot },
        draw: { seed: drawn.seed, merkleRoot: drawn.merkleRoot, ticketCount: 3, winningTicket: drawn.winningTicket },
      });
      expect(after.draw.result).toBe(drawn.winningTicket === ticket.position ? "won" : "lost");
      const checkedAfter = verify(after, ["--key", key!]);
      expect(checkedAfter.out).toContain("ok      The winning ticket recomputes from the seed, the beacon round and the ticket list");
      expect(checkedAfter.status).toBe(0);
      const shown = await pageText(await call(`/receipts/${ticket.id}`, { cookie }));
      expect(shown).toContain(`#${drawn.winningTicket}`);
      expect(shown).toContain(`href="/fair/${raffle.id}#check-title"`);

      // Any field changed: the signature no longer holds, and the facts' own checks say what else broke.
      const tampered: [string, (r: Json) => void, string?][] = [
        ["price", (r) => (r.paid.cash = 1), undefined],
        ["time", (r) => (r.enteredAt = new Date(0).toISOString())],
        ["raffle", (r) => (r.raffle.tier = "elite")],
        ["ticket", (r) => (r.tickets[0].position = (r.tickets[0].position + 1) % 3), "Each ticket's inclusion proof"],
        ["winner", (r) => (r.draw.winningTicket = (r.draw.winningTicket + 1) % 3), "The winning ticket recomputes"],
        ["result", (r) => (r.draw.result = r.draw.result === "won" ? "lost" : "won"), "The result (won or lost)"],
        ["seed", (r) => (r.draw.seed = "00".repeat(32)), "SHA-256(seed)"],
        ["signature", (r) => (r.signature.value = r.signature.value.replace(/^./, (c: string) => (c === "0" ? "1" : "0")))],
      ];
      for (const [field, change, alsoFails] of tampered) {
        const receipt = copy(after);
        change(receipt);
        const result = verify(receipt);
        expect(result.status, field).toBe(1);
        expect(result.out, field).toContain("FAILED  The site's Ed25519 signature covers every field of the receipt");
        expect(result.out, field).toContain("NOT VERIFIED");
        if (alsoFails) expect(result.out, field).toContain(`FAILED  ${alsoFails}`);
      }
      // Re-signed by someone else's key: fails against the key /fair publishes.
      const forger = generateKeyPairSync("ed25519");
      const forged = copy(after);
      forged.draw.prize = 1_000_000;
      forged.signature.publicKey = Buffer.from(String(forger.publicKey.export({ format: "jwk" }).x), "base64url").toString("hex");
      forged.signature.value = sign(null, Buffer.from(receiptMessage(forged)), forger.privateKey).toString("hex");
      expect(verify(forged).status).toBe(0);
      const pinned = verify(forged, ["--key", key!]);
      expect(pinned.status).toBe(1);
      expect(pinned.out).toContain("FAILED  The receipt is signed by the site's published receipt key");
      // A usage error is not a verdict.
      expect(verify(after, ["--key", "nothex"]).status).toBe(2);
    },
    // Each run of the script is a child process, and a beacon signature check costs a pairing.
    scaled(120_000),
  );
});

describe("email receipts", () => {
  it("are off by default; when on, every accepted entry queues one, once, under concurrent entries", async () => {
    const raffle = await createTestRaffle({ entryPrice: 5n });
    const quiet = await createTestUser({ coins: 100n });
    await enterRaffle({ userId: quiet.id, raffleId: raffle.id });
    expect(await db().emailOutbox.count({ where: { userId: quiet.id, kind: "entry_receipt" } })).toBe(0);

    const player = await createTestUser({ coins: 100n });
    const cookie = await sessionCookie(player.id);
    const saved = await call("/api/settings", { method: "POST", cookie, form: { emailNotifications: "true", emailEntryReceipts: "true" } });
    expect(await saved.json()).toMatchObject({ emailEntryReceipts: true });
    const other = await createTestUser({ coins: 100n });
    await db().user.update({ where: { id: other.id }, data: { emailEntryReceipts: true } });

    // Many entries at once, by two players, some over the cap (refused: no receipt for them),
    // in batches shared with a player who asked for none.
    const results = await Promise.allSettled([
      ...Array.from({ length: 12 }, () => enterRaffle({ userId: player.id, raffleId: raffle.id })),
      ...Array.from({ length: 4 }, () => enterRaffle({ userId: other.id, raffleId: raffle.id })),
      ...Array.from({ length: 4 }, () => enterRaffle({ userId: quiet.id, raffleId: raffle.id })),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(18);
    expect(await db().emailOutbox.count({ where: { userId: quiet.id, kind: "entry_receipt" } })).toBe(0);
    for (const who of [player, other]) {
      const tickets = await db().entry.findMany({ where: { raffleId: raffle.id, userId: who.id }, select: { id: true, position: true } });
      const mails = await db().emailOutbox.findMany({
        where: { userId: who.id, kind: "entry_receipt" },
        select: { idempotencyKey: true, toAddress: true, data: true },
      });
      expect(mails.map((m) => m.idempotencyKey).sort()).toEqual(tickets.map((t) => `entry-receipt:${t.id}`).sort());
      expect(new Set(mails.map((m) => m.toAddress))).toEqual(new Set([who.email]));
    }

    const [mail] = await db().emailOutbox.findMany({ where: { userId: player.id, kind: "entry_receipt" }, take: 1 });
    const data = mail!.data as Record<string, string>;
    const ticket = await db().entry.findUniqueOrThrow({ where: { id: data.receiptId }, select: { position: true, userId: true } });
    expect(ticket.userId).toBe(player.id);
    const seedHash = (await db().raffle.findUniqueOrThrow({ where: { id: raffle.id } })).seedHash;
    const text = renderMail("entry_receipt", data, "https://raffle.example").text;
    for (const fact of [
      raffle.id,
      `ticket #${ticket.position}`,
      "5 coins: 0 cash and 5 bonus",
      seedHash,
      "not joined to a beacon",
      `https://raffle.example/receipts/${data.receiptId}`,
    ]) {
      expect(text).toContain(fact);
    }
  });
});
