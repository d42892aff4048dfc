import type { ToastMessage } from "./toast";

/** What `/api/confirm-payment` answers once Stripe.js has confirmed a payment in the page. */
export type Confirmation = { status?: string; coins?: number; tier?: string; message?: string };

/** The toasts a payment ends in, the same whether the server redirects or the page confirms. */
export const paymentToasts = {
  coinsAdded: (coins: number | bigint): Omit<ToastMessage, "id"> => ({
    type: "success",
    title: "Payment Successful!",
    description: `${coins.toLocaleString("en-US")} coins have been added to your account!`,
  }),
  vipActive: (tier: string): Omit<ToastMessage, "id"> => ({
    type: "success",
    title: `Welcome to ${tier.toUpperCase()} tier!`,
    description: "Your benefits are now active.",
  }),
  processing: (kind: "coins" | "vip"): Omit<ToastMessage, "id"> => ({
    type: "info",
    title: "Payment Processing",
    description: `Your payment is being processed; ${kind === "vip" ? "your membership will start" : "your coins will appear"} shortly.`,
  }),
};

/**
 * What the player is told after the server has looked at a payment Stripe.js confirmed,
 * and where they go next (they stay on the page when it failed). A payment still
 * processing (202) has credited nothing yet: it is never announced as paid.
 */
export function confirmationOutcome(kind: "coins" | "vip", ok: boolean, data: Confirmation): { toast: Omit<ToastMessage, "id">; to?: string } {
  if (!ok) {
    return { toast: { type: "error", title: "Payment Processing Error", description: data.message ?? "Please contact support if coins were not added." } };
  }
  if (data.status === "pending") return { toast: paymentToasts.processing(kind), to: kind === "vip" ? "/vip" : "/" };
  if (data.tier) return { toast: paymentToasts.vipActive(data.tier), to: "/vip" };
  return { toast: paymentToasts.coinsAdded(data.coins ?? 0), to: "/" };
}
