import { randomBytes } from "node:crypto";
import { createDemoPayment, findDemoPayment, recordDemoRefund, settleWaitingDemoPayment } from "~/models/money/demo-payment.server";
import { WebhookSignatureError, type PaymentProvider, type ProviderPayment } from "./provider";

/**
 * The demo provider (no Stripe keys): payments live in `demo_payments`, as they would at
 * Stripe. Test cards: 4242 4242 4242 4242 succeeds, 4000 0000 0000 0002 is declined.
 * The card number is only ever looked at in memory, never stored or logged.
 */
export const DEMO_SUCCESS_CARD = "4242424242424242";
export const DEMO_DECLINED_CARD = "4000000000000002";

export const demoProvider: PaymentProvider & { payWithTestCard(id: string, cardNumber: string): Promise<ProviderPayment> } = {
  name: "demo",

  async createPayment({ amountCents, metadata }) {
    const id = `demo_pi_${randomBytes(12).toString("hex")}`;
    await createDemoPayment(id, amountCents, metadata);
    return { id, clientSecret: `${id}_secret_${randomBytes(12).toString("hex")}` };
  },

  async getPayment(id) {
    const row = await findDemoPayment(id);
    if (!row) throw new Error(`no demo payment ${id}`);
    return {
      id: row.id,
      status: row.status as ProviderPayment["status"],
      amountCents: row.amountCents,
      currency: "usd",
      metadata: row.metadata as Record<string, string>,
      failureMessage: row.status === "failed" ? "Your card was declined." : undefined,
    };
  },

  async cancelPayment(id) {
    await settleWaitingDemoPayment(id, "canceled");
    return this.getPayment(id);
  },

  async payWithTestCard(id, cardNumber) {
    const digits = cardNumber.replace(/[\s-]/g, "");
    const status = digits === DEMO_SUCCESS_CARD ? "succeeded" : "failed";
    // Only a payment still waiting for a card can change; a repeat changes nothing.
    await settleWaitingDemoPayment(id, status);
    return this.getPayment(id);
  },

  /** A refund of a demo payment goes through at once (kept beside the payments, as Stripe keeps it). */
  async refundPayment({ paymentId, amountCents, idempotencyKey }) {
    const id = `demo_re_${idempotencyKey.replace(/\W/g, "_")}`.slice(0, 255);
    const payment = await findDemoPayment(paymentId);
    if (!payment || payment.status !== "succeeded") return { id, status: "refused", failureReason: "The payment cannot be refunded" };
    await recordDemoRefund(id, amountCents, paymentId);
    return { id, status: "succeeded" };
  },

  async getRefund(id) {
    const row = await findDemoPayment(id);
    return row ? { id, status: "succeeded" } : { id, status: "failed", failureReason: "No such refund" };
  },

  async tokenizePayoutCard() {
    return `demo_card_${randomBytes(12).toString("hex")}`;
  },

  async parseWebhook() {
    throw new WebhookSignatureError("The demo provider sends no webhooks");
  },
};
