import { randomBytes } from "node:crypto";
import {
  authorizeDemoPayment,
  createDemoPayment,
  findDemoPayment,
  recordDemoRefund,
  settleAuthorizedDemoPayment,
  settleWaitingDemoPayment,
} from "~/models/money/demo-payment.server";
import { WebhookSignatureError, type PaymentProvider, type ProviderPayment } from "./provider";

/**
 * The demo provider (no Stripe keys): payments live in `demo_payments`, as they would at
 * Stripe. Test cards: 4242 4242 4242 4242 succeeds (a debit card here), 4000 0000 0000 0002
 * is declined, 5555 5555 5555 4444 is a credit card (Stripe's Mastercard test card, credit
 * funding): refused where credit cards are banned (GB), accepted elsewhere. A card
 * authorises the payment; settling captures it (ADR 080). The card number is only ever
 * looked at in memory, never stored or logged.
 */
export const DEMO_SUCCESS_CARD = "4242424242424242";
export const DEMO_DECLINED_CARD = "4000000000000002";
export const DEMO_CREDIT_CARD = "5555555555554444";

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
    const { cardFunding, ...metadata } = row.metadata as Record<string, string>;
    return {
      id: row.id,
      status: row.status as ProviderPayment["status"],
      amountCents: row.amountCents,
      currency: "usd",
      metadata,
      failureMessage: row.status === "failed" ? "Your card was declined." : undefined,
      ...(cardFunding === "credit" || cardFunding === "debit" ? { cardFunding } : {}),
    };
  },

  async cancelPayment(id) {
    await settleWaitingDemoPayment(id, "canceled");
    await settleAuthorizedDemoPayment(id, "canceled");
    return this.getPayment(id);
  },

  async capturePayment(id) {
    await settleAuthorizedDemoPayment(id, "succeeded");
    return this.getPayment(id);
  },

  async payWithTestCard(id, cardNumber) {
    const digits = cardNumber.replace(/[\s-]/g, "");
    // Only a payment still waiting for a card can change; a repeat changes nothing.
    if (digits === DEMO_SUCCESS_CARD || digits === DEMO_CREDIT_CARD) await authorizeDemoPayment(id, digits === DEMO_CREDIT_CARD ? "credit" : "debit");
    else await settleWaitingDemoPayment(id, "failed");
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
