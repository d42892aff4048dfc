import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { drawnEarly } from "../fair-support";
import { scaled } from "../../support/timeouts";

/** The browser's check of a draw (issue 20, defect 7) catches a record changed on its way: here its seed. */
let raffleId: string;
test.beforeAll(async ({ browser, baseURL }) => {
  test.setTimeout(scaled(60_000));
  raffleId = await drawnEarly(browser, baseURL!);
});

test("a draw whose published record was changed does not verify", async ({ page }) => {
  await page.route(`**/api/fair/${raffleId}`, async (route) => {
    const response = await route.fetch();
    const draw = (await response.json()) as { seed: string };
    // Another seed: one bit changed.
    const last = parseInt(draw.seed.slice(-1), 16) ^ 1;
    await route.fulfill({ response, json: { ...draw, seed: draw.seed.slice(0, -1) + last.toString(16) } });
  });
  await page.goto(`/fair/${raffleId}`);
  const result = page.getByTestId("verification-result");
  await expect(result).toContainText("This draw does not verify");
  await expect(result).toContainText("Failed: SHA-256(seed) equals the seed hash published at the start");
});

/**
 * A draw joined by the beacon (issue 23), checked by the bundled verifier in Chromium: the
 * BLS signature of quicknet's round 123 and the draw of docs/fairness.md's vector with it,
 * then the same record with another round's signature.
 */
test("the browser checks a beacon draw's BLS signature, and refuses another round's", async ({ page }) => {
  const doc = readFileSync("docs/fairness.md", "utf8");
  const beaconPart = doc.slice(doc.indexOf("### With the beacon"));
  const field = (text: string, name: string) => new RegExp(`${name} \`([0-9a-f]+)\``).exec(text)![1]!;
  const seed = "00".repeat(31) + /then\s+`0x([0-9a-f]{2})`/.exec(doc)![1]!;
  const root = /^\| 5 \| `([0-9a-f]{64})` \| \d+ \|$/m.exec(doc)![1]!;
  const winner = Number(/^\| 5 \| (\d+) \|$/m.exec(beaconPart)![1]);
  const signature = field(beaconPart, "signature");
  const draw = {
    raffleId: /Raffle id `([0-9a-f-]{36})`/.exec(doc)![1]!,
    status: "completed",
    revealed: true,
    endTime: "2023-08-23T15:15:31.500Z",
    seed,
    seedHash: /`seedHash = ([0-9a-f]{64})`/.exec(doc)![1]!,
    ticketCount: 5,
    tickets: Array.from({ length: 5 }, (_, i) => ({ position: i, ticketId: `t${i}` })),
    merkleRoot: root,
    winningTicket: winner,
    beacon: {
      chainHash: "52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971",
      publicKey: field(beaconPart, "public key"),
      scheme: "bls-unchained-g1-rfc9380",
      periodSeconds: 3,
      genesisTime: 1692803367,
      round: 123,
      signature,
      randomness: field(beaconPart, "randomness"),
    },
  };
  let served: object = draw;
  await page.route(`**/api/fair/${raffleId}`, (route) => route.fulfill({ json: served }));
  const result = page.getByTestId("verification-result");

  await page.goto(`/fair/${raffleId}`);
  await expect(result).toContainText(`Verified in your browser: ticket #${winner} won, as published.`);
  await expect(result).toContainText("Passed: The round's BLS signature verifies against the chain's public key");
  await expect(result).toContainText("Passed: The beacon round is the first after the raffle's end");

  // Round 124's time is after this raffle's end by more than a round: the signature must be round 123's.
  served = { ...draw, beacon: { ...draw.beacon, round: 124 } };
  await page.reload();
  await expect(result).toContainText("This draw does not verify");
  await expect(result).toContainText("Failed: The round's BLS signature verifies against the chain's public key");
});
