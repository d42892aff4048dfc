import { describe, expect, it } from "vitest";
import { userBalance } from "~/models/money/ledger.server";
import { readToast } from "~/web/toast.server";
import { call, cookiesFrom, sessionCookie } from "../support/app";
import { createTestUser } from "../support/factories";

/** Demo mode's credit card, 5555 5555 5555 4444 (ADR 080): refused in GB, accepted elsewhere; 4000 0000 0000 0002 still declines. */
describe("the demo provider's credit card", () => {
  const pay = async (country: string, cardNumber: string) => {
    const player = await createTestUser({ country });
    const response = await call("/checkout?package=package_1", {
      method: "POST",
      cookie: await sessionCookie(player.id),
      form: { intent: "demo-pay", cardNumber, expiry: "12/34", cvc: "123" },
    });
    expect(response.status).toBe(302);
    const { toast } = await readToast(new Request("http://localhost/", { headers: { Cookie: cookiesFrom(response) } }));
    return { toast, balance: await userBalance(player.id) };
  };

  it("refuses the credit card in GB with the reason, and charges nothing", async () => {
    const { toast, balance } = await pay("GB", "5555 5555 5555 4444");
    expect(toast).toMatchObject({ type: "error", title: "Payment Failed", description: expect.stringContaining("Credit cards cannot be used") });
    expect(balance).toBe(0n);
  });

  it("accepts it in IE, and the debit card in GB; the declined card still declines", async () => {
    expect((await pay("IE", "5555 5555 5555 4444")).toast).toMatchObject({ type: "success" });
    expect((await pay("GB", "4242 4242 4242 4242")).toast).toMatchObject({ type: "success" });
    const declined = await pay("GB", "4000 0000 0000 0002");
    expect(declined.toast).toMatchObject({ type: "error", description: "Your card was declined." });
    expect(declined.balance).toBe(0n);
  });
});
