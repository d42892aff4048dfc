import type { ToastMessage } from "./toaster";

/** What `/api/confirm-payment` answers once Stripe.js has confirmed a payment in the page. */
export type Confirmation = { status?: string; coins?: number; tier?: string; message?: string };

/**
 * What the player is told after the server has looked at a payment Stripe.js confirmed,
 * and where they go next (they stay on the page when it failed). A payment still
 * processing (202) has credited nothing yet: it is never announced as paid.
 */
export function confirmationOutcome(
  kind: "coins" | "vip",
  ok: boolean,
  data: Confirmation,
): { toast: Omit<ToastMessage, "id">; to?: string } {
  if (!ok) {
    return { toast: { type: "error", title: "Payment Processing Error", description: data.message ?? "Please contact support if coins were not added." } };
  }
  if (data.status === "pending") {
    const what = kind === "vip" ? "your membership will start" : "your coins will appear";
    return { toast: { type: "info", title: "Payment Processing", description: `Your payment is being processed; ${what} shortly.` }, to: kind === "vip" ? "/vip" : "/" };
  }
  if (data.tier) {
    return { toast: { type: "success", title: `Welcome to ${data.tier.toUpperCase()} tier!`, description: "Your benefits are now active." }, to: "/vip" };
  }
  return { toast: { type: "success", title: "Payment Successful!", description: `${data.coins} coins have been added to your account!` }, to: "/" };
}
