import { describe, expect, it } from "vitest";
import { confirmationOutcome } from "./payment-toasts";

describe("what a player is told after paying in the page", () => {
  it("announces coins and memberships once the server has credited them", () => {
    expect(confirmationOutcome("coins", true, { status: "succeeded", coins: 600 })).toEqual({
      toast: { type: "success", title: "Payment Successful!", description: "600 coins have been added to your account!" },
      to: "/",
    });
    expect(confirmationOutcome("vip", true, { status: "succeeded", tier: "gold" })).toEqual({
      toast: { type: "success", title: "Welcome to GOLD tier!", description: "Your benefits are now active." },
      to: "/vip",
    });
  });

  it("writes the coins with a thousands separator", () => {
    expect(confirmationOutcome("coins", true, { status: "succeeded", coins: 5500 }).toast.description).toBe("5,500 coins have been added to your account!");
  });

  it("never announces a payment still processing as paid", () => {
    expect(confirmationOutcome("coins", true, { status: "pending" })).toEqual({
      toast: { type: "info", title: "Payment Processing", description: "Your payment is being processed; your coins will appear shortly." },
      to: "/",
    });
    expect(confirmationOutcome("vip", true, { status: "pending" }).toast).toMatchObject({
      type: "info",
      description: "Your payment is being processed; your membership will start shortly.",
    });
  });

  it("keeps the player on the page with the server's message when it failed", () => {
    expect(confirmationOutcome("coins", false, { message: "Your card was declined." })).toEqual({
      toast: { type: "error", title: "Payment Processing Error", description: "Your card was declined." },
    });
  });
});
