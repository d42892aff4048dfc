import { expect, test } from "@playwright/test";
import { newDataDir, removeDataDirs, startServer, stopServer, waitUntilReady, type ServerProcess } from "../../support/server-process";

/**
 * Card data in, nothing out: a debit-card withdrawal whose accountInfo carries a full
 * card number and a CVV leaves neither in any response or in the server's logs (traced
 * at the most verbose level). The database side is checked by tests/integration/withdrawals.test.ts.
 */
const CARD = "4000056655665556";
const CVV = "8642";
let server: ServerProcess;

test.beforeAll(async () => {
  server = await startServer(newDataDir(), { LOG_LEVEL: "trace" });
  await waitUntilReady(server);
});

test.afterAll(async () => {
  await stopServer(server);
  removeDataDirs();
});

test("no card number or CVV in responses or logs", async ({ playwright }) => {
  const base = `http://localhost:${server.port}`;
  const request = await playwright.request.newContext({ baseURL: base, extraHTTPHeaders: { Origin: base } });
  const signUp = await request.post("/api/login", {
    form: { intent: "signup", email: "cards@example.com", password: "correct horse battery staple", dateOfBirth: "1990-01-01", country: "GB", acceptTerms: "on" },
    maxRedirects: 0,
  });
  expect(signUp.status()).toBe(302);
  const bodies: string[] = [];
  const withdraw = await request.post("/api/withdraw", {
    data: { amount: 10, method: "debit_card", accountInfo: `Card: ${CARD} | Exp: 11/30 | CVV: ${CVV}` },
    headers: { Accept: "application/json" },
  });
  expect(withdraw.status()).toBe(200);
  bodies.push(await withdraw.text());
  for (const path of ["/api/withdrawals", "/withdraw", "/api/auth/user"]) bodies.push(await (await request.get(path)).text());
  expect(bodies.join("\n")).toContain("••••5556");
  for (const secret of [CARD, CVV]) {
    expect(bodies.join("\n")).not.toContain(secret);
    expect(server.output()).not.toContain(secret);
  }
  await request.dispose();
});
