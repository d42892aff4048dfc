import { describe, expect, it } from "vitest";
import { userBalance } from "~/models/money/ledger.server";
import { readToast } from "~/web/toast.server";
import { call, cookiesFrom, sessionCookie } from "../support/app";
import { createTestUser } from "../support/factories";

/** The demo checkout's own card form (ADR 040: parsed with conform, answered with the spec's toast). */
describe("the demo checkout form", () => {
  const pay = (cookie: string, fields: Record<string, string>) =>
    call("/checkout?package=package_1", { method: "POST", cookie, form: { intent: "demo-pay", ...fields } });
  const toastOf = async (response: Response) => {
    expect(response.status).toBe(302);
    return (await readToast(new Request("http://localhost/", { headers: { Cookie: cookiesFrom(response) } }))).toast;
  };

  it("refuses a blank or malformed field with a toast naming it, back on the checkout, and charges nothing", async () => {
    const player = await createTestUser({ coins: 0n });
    const cookie = await sessionCookie(player.id);
    const card = { cardNumber: "4242 4242 4242 4242", expiry: "12/34", cvc: "123" };
    for (const [fields, description] of [
      [{ ...card, cardNumber: "" }, "Enter the card number"],
      [{ expiry: card.expiry, cvc: card.cvc }, "Enter the card number"],
      [{ ...card, expiry: "1234" }, "Enter the expiry as MM/YY"],
      [{ ...card, cvc: "" }, "Enter the 3 or 4 digit code"],
    ] as const) {
      const response = await pay(cookie, fields);
      expect(response.headers.get("Location")).toBe("/checkout?package=package_1");
      expect(await toastOf(response)).toMatchObject({ type: "error", title: "Payment Failed", description });
    }
    expect(await userBalance(player.id)).toBe(0n);

    const paid = await pay(cookie, card);
    expect(await toastOf(paid)).toMatchObject({ type: "success" });
    expect(await userBalance(player.id)).toBeGreaterThan(0n);
  });
});
