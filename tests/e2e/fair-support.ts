import { expect, type Browser } from "@playwright/test";
import { enrolledAdmin, signInRequest, unique } from "./support";
import { scaled } from "../support/timeouts";

/**
 * A real quick round with two players (the demo player and a new one; staff do not play),
 * which an admin past the gate completes early: drawn at once, before its scheduled end.
 */
export async function drawnEarly(browser: Browser, baseURL: string): Promise<string> {
  const headers = { Origin: baseURL, Accept: "application/json" };
  const player = await browser.newContext({ baseURL });
  const other = await browser.newContext({ baseURL });
  await signInRequest(player.request, baseURL, "player@demo.test", "demo-player-pass");
  const signedUp = await other.request.post("/api/login", {
    form: {
      intent: "signup",
      email: `fair-${unique()}@example.com`,
      password: "correct horse battery staple",
      dateOfBirth: "1990-01-01",
      country: "IE",
      acceptTerms: "on",
    },
    headers: { Origin: baseURL },
    maxRedirects: 0,
  });
  expect(signedUp.status()).toBe(302);
  // A player chooses a username before playing.
  const named = await other.request.post("/api/auth/create-username", { data: { username: `f_${unique()}`.slice(0, 20) }, headers });
  expect(named.status()).toBe(200);
  const backOffice = await browser.newContext({ baseURL });
  await enrolledAdmin(backOffice.request, baseURL);
  let raffleId = "";
  // A 30-second round may end between the list and the entries: then take the next one.
  await expect(async () => {
    const rounds = (await (await player.request.get("/api/quick-raffles")).json()) as {
      id: string;
      timeRemaining: number;
      entryPrice: string;
      vipOnly: boolean;
    }[];
    const round = rounds.filter((r) => r.timeRemaining >= 8 && !r.vipOnly).sort((a, b) => Number(a.entryPrice) - Number(b.entryPrice))[0];
    expect(round).toBeDefined();
    for (const context of [player, other]) {
      expect((await context.request.post(`/api/quick-raffles/${round!.id}/enter`, { headers })).status()).toBe(200);
    }
    const completed = await backOffice.request.post(`/api/admin/raffles/${round!.id}/complete`, { headers });
    expect(completed.status()).toBe(200);
    expect(await completed.json()).toMatchObject({ outcome: "completed" });
    raffleId = round!.id;
  }).toPass({ timeout: scaled(45_000) });
  await player.close();
  await other.close();
  await backOffice.close();
  return raffleId;
}
