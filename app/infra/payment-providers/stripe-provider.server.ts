import Stripe from "stripe";
import { getEnv } from "~/infra/env.server";
import {
  PaymentProviderUnavailable,
  WebhookSignatureError,
  type PaymentProvider,
  type ProviderEvent,
  type ProviderPayment,
  type ProviderRefund,
  type CardFunding,
} from "./provider";

/** Stripe: PaymentIntents (Payment Element) with JavaScript, Checkout without it. */
function client(): Stripe {
  const env = getEnv();
  const api = env.STRIPE_API_URL ? new URL(env.STRIPE_API_URL) : undefined;
  return new Stripe(env.STRIPE_SECRET_KEY!, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    ...(api ? { host: api.hostname, port: Number(api.port), protocol: api.protocol.replace(":", "") as "http" | "https" } : {}),
  });
}

let stripe: Stripe | undefined;
const sdk = () => (stripe ??= client());
/** The one Stripe client (payments and Stripe Identity share the keys and the API base). */
export const stripeSdk = sdk;

/**
 * Runs a call to Stripe; a network failure, Stripe's own server error, its rate limit or
 * a request with the same idempotency key still in progress (409, after the SDK's
 * retries) becomes PaymentProviderUnavailable: try again later. Anything else (a request
 * Stripe refuses as invalid) is our bug and stays an error.
 */
async function reach<T>(call: (api: Stripe) => Promise<T>): Promise<T> {
  try {
    return await call(sdk());
  } catch (error) {
    throw stripeUnavailable(error) ? new PaymentProviderUnavailable(error) : error;
  }
}

/** Whether Stripe could not answer now (payments and Stripe Identity alike): see `reach`. */
export function stripeUnavailable(error: unknown): boolean {
  return (
    error instanceof Stripe.errors.StripeConnectionError ||
    error instanceof Stripe.errors.StripeAPIError ||
    error instanceof Stripe.errors.StripeRateLimitError ||
    (error instanceof Stripe.errors.StripeError && error.statusCode === 409)
  );
}

/**
 * Our reading of a PaymentIntent. A declined card leaves it `requires_payment_method`
 * with the decline as `last_payment_error`: still payable with another card, so not
 * failed (its failureMessage says why the last try did not go through).
 */
function toPayment(intent: Stripe.PaymentIntent): ProviderPayment {
  const status: ProviderPayment["status"] =
    intent.status === "succeeded"
      ? "succeeded"
      : intent.status === "requires_capture"
        ? "authorized"
        : intent.status === "processing"
          ? "processing"
          : intent.status === "canceled"
            ? "canceled"
            : "requires_payment";
  return {
    id: intent.id,
    status,
    amountCents: intent.amount,
    currency: intent.currency,
    metadata: (intent.metadata ?? {}) as Record<string, string>,
    failureMessage: intent.last_payment_error?.message ?? undefined,
    ...(cardFunding(intent.payment_method) ? { cardFunding: cardFunding(intent.payment_method) } : {}),
  };
}

/** The funding of the card that paid (the PaymentIntent read with its payment_method expanded). */
function cardFunding(method: string | Stripe.PaymentMethod | null): CardFunding | undefined {
  if (!method || typeof method === "string" || !method.card) return undefined;
  const funding = method.card.funding;
  return funding === "credit" || funding === "debit" || funding === "prepaid" ? funding : "unknown";
}

/** The metadata field a refund carries its idempotency key in, to be found by it after Stripe forgets the key. */
const REFUND_KEY = "refund_key";

/**
 * Whether a refund of the payment is the one asked for with this key: it carries the key,
 * or (made before refunds carried it) no key and every field of the metadata asked with.
 */
function sameRefund(found: Stripe.Metadata, idempotencyKey: string, metadata: Record<string, string>): boolean {
  if (REFUND_KEY in found) return found[REFUND_KEY] === idempotencyKey;
  const asked = Object.entries(metadata);
  return asked.length > 0 && asked.every(([field, value]) => found[field] === value);
}

/** Our reading of a Refund: `requires_action` and `pending` wait for the bank; `canceled` sent nothing, as `failed`. */
function toRefund(refund: Stripe.Refund): ProviderRefund {
  const held = { id: refund.id, amountCents: refund.amount, metadata: refund.metadata ?? {} };
  if (refund.status === "succeeded") return { ...held, status: "succeeded" };
  if (refund.status === "failed" || refund.status === "canceled") {
    return { ...held, status: "failed", failureReason: refund.failure_reason ?? refund.status };
  }
  return { ...held, status: "pending" };
}

export const stripeProvider: PaymentProvider = {
  name: "stripe",

  async createPayment({ amountCents, description, metadata, idempotencyKey }) {
    const intent = await reach((api) =>
      api.paymentIntents.create(
        // Authorised, then captured by us once the card's funding is read (credit cards are refused where banned: ADR 080).
        { amount: amountCents, currency: "usd", description, metadata, automatic_payment_methods: { enabled: true }, capture_method: "manual" },
        { idempotencyKey },
      ),
    );
    return { id: intent.id, clientSecret: intent.client_secret! };
  },

  async getPayment(id) {
    return toPayment(await reach((api) => api.paymentIntents.retrieve(id, { expand: ["payment_method"] })));
  },

  async capturePayment(id) {
    try {
      await reach((api) => api.paymentIntents.capture(id));
    } catch (error) {
      // Captured (or canceled) meanwhile: what it became is the answer.
      if (!(error instanceof Stripe.errors.StripeInvalidRequestError && error.code === "payment_intent_unexpected_state")) throw error;
    }
    return this.getPayment(id);
  },

  async cancelPayment(id) {
    try {
      return toPayment(await reach((api) => api.paymentIntents.cancel(id)));
    } catch (error) {
      // Too late: it succeeded or is processing meanwhile. What it became is the answer.
      if (error instanceof Stripe.errors.StripeInvalidRequestError && error.code === "payment_intent_unexpected_state") return this.getPayment(id);
      throw error;
    }
  },

  async createHostedCheckout({ amountCents, description, metadata, successUrl, cancelUrl, idempotencyKey }) {
    const session = await reach((api) =>
      api.checkout.sessions.create(
        {
          mode: "payment",
          line_items: [{ quantity: 1, price_data: { currency: "usd", unit_amount: amountCents, product_data: { name: description } } }],
          payment_intent_data: { metadata, description, capture_method: "manual" },
          metadata,
          success_url: successUrl,
          cancel_url: cancelUrl,
        },
        { idempotencyKey },
      ),
    );
    return { id: session.id, url: session.url! };
  },

  async getHostedCheckout(id) {
    const session = await reach((api) => api.checkout.sessions.retrieve(id));
    return {
      id: session.id,
      paymentId: stripeId(session.payment_intent),
      paid: session.payment_status === "paid",
      expired: session.status === "expired",
      metadata: (session.metadata ?? {}) as Record<string, string>,
    };
  },

  async expireHostedCheckout(id) {
    try {
      await reach((api) => api.checkout.sessions.expire(id));
    } catch (error) {
      // Only an open session can expire: one complete (paid) or expired already stays so.
      if (!(error instanceof Stripe.errors.StripeInvalidRequestError)) throw error;
    }
  },

  async refundPayment({ paymentId, amountCents, idempotencyKey, metadata }) {
    // Stripe keeps an idempotency key for 24 hours only. A refund whose answer was lost and
    // that is retried later (an outage, the sweep) is found by the key it carries, not made
    // twice; within the 24 hours the key itself covers two tries at once. One made
    // before refunds carried their key is found by the metadata it was sent with.
    const made = await reach(async (api) => {
      for await (const refund of api.refunds.list({ payment_intent: paymentId, limit: 100 })) {
        if (sameRefund(refund.metadata ?? {}, idempotencyKey, metadata)) return refund;
      }
      return null;
    });
    if (made) return toRefund(made);
    try {
      return toRefund(
        await reach((api) =>
          api.refunds.create({ payment_intent: paymentId, amount: amountCents, metadata: { ...metadata, [REFUND_KEY]: idempotencyKey } }, { idempotencyKey }),
        ),
      );
    } catch (error) {
      // Stripe refuses the refund itself (already refunded, disputed): nothing was sent. A
      // request whose key is still in use is not a refusal: reach() made it unavailable.
      if (error instanceof Stripe.errors.StripeInvalidRequestError) return { id: `refused:${idempotencyKey}`, status: "refused", failureReason: error.message };
      throw error;
    }
  },

  async getRefund(id) {
    return toRefund(await reach((api) => api.refunds.retrieve(id)));
  },

  async tokenizePayoutCard({ number, expMonth, expYear }) {
    const token = await reach((api) =>
      api.tokens.create({ card: { number, exp_month: String(expMonth), exp_year: String(expYear), currency: "usd" } } as Stripe.TokenCreateParams),
    );
    return token.id;
  },

  async parseWebhook(rawBody, signature) {
    const secret = getEnv().STRIPE_WEBHOOK_SECRET;
    if (!secret || !signature) throw new WebhookSignatureError("Missing webhook signature");
    let event: Stripe.Event;
    try {
      event = sdk().webhooks.constructEvent(rawBody, signature, secret);
    } catch (error) {
      throw new WebhookSignatureError((error as Error).message);
    }
    const eventId = stripeId(event.id);
    return { ...toEvent(event), ...(eventId ? { eventId } : {}) };
  },
};

/** A Stripe id: a short string of letters, digits and underscores (anything else is not one of ours). */
function isCents(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
}

function stripeId(value: unknown): string | null {
  const id = typeof value === "object" && value !== null ? (value as { id?: unknown }).id : value;
  return typeof id === "string" && /^\w{1,255}$/.test(id) ? id : null;
}

/**
 * Our reading of a verified event. The signature proves who sent it, not its shape: an
 * event whose object or ids are not what its type promises is acknowledged and ignored.
 */
function toEvent(event: Stripe.Event): ProviderEvent {
  const type = String(event.type);
  const object: unknown = (event.data as { object?: unknown } | undefined)?.object;
  if (typeof object !== "object" || object === null) return { kind: "ignored", type };
  const fields = object as Record<string, unknown>;
  const id = stripeId(fields.id);
  const paymentIntent = stripeId(fields.payment_intent);
  switch (type) {
    // Authorised (amount_capturable_updated): settling reads the card's funding, then captures or cancels it.
    case "payment_intent.succeeded":
    case "payment_intent.amount_capturable_updated":
      return id ? { kind: "payment_succeeded", paymentId: id } : { kind: "ignored", type };
    case "payment_intent.payment_failed": {
      const message = (fields.last_payment_error as { message?: unknown } | null | undefined)?.message;
      return id ? { kind: "payment_failed", paymentId: id, message: typeof message === "string" ? message : undefined } : { kind: "ignored", type };
    }
    case "checkout.session.completed":
      return id ? { kind: "checkout_completed", sessionId: id, paymentId: paymentIntent } : { kind: "ignored", type };
    case "charge.refunded": {
      // The charge's refunded total so far: a repeat or a later partial refund is told apart by it.
      const refunded = fields.amount_refunded;
      return paymentIntent && isCents(refunded)
        ? { kind: "payment_reversed", paymentId: paymentIntent, reversal: { reason: "refund", refundedCents: refunded } }
        : { kind: "ignored", type };
    }
    case "refund.created":
    case "refund.updated":
    case "refund.failed":
      return id ? { kind: "refund_updated", refundId: id } : { kind: "ignored", type };
    case "charge.refund.updated":
      return id ? { kind: "refund_updated", refundId: id } : { kind: "ignored", type };
    // Any of a dispute's events may come first (or alone): the first takes the money back,
    // told apart by the dispute's id. One that says it was won gives back what it took
    // (ADR 108). An inquiry (`warning_*`) moves no money; escalated, the same dispute's next
    // event takes it back.
    case "charge.dispute.created":
    case "charge.dispute.updated":
    case "charge.dispute.closed":
    case "charge.dispute.funds_withdrawn":
    case "charge.dispute.funds_reinstated": {
      const disputed = fields.amount;
      if (!id || !paymentIntent || (typeof fields.status === "string" && fields.status.startsWith("warning_"))) return { kind: "ignored", type };
      if (type === "charge.dispute.funds_reinstated" || fields.status === "won") {
        return { kind: "dispute_won", paymentId: paymentIntent, disputeId: id, amountCents: isCents(disputed) ? disputed : 0 };
      }
      return isCents(disputed)
        ? { kind: "payment_reversed", paymentId: paymentIntent, reversal: { reason: "dispute", amountCents: disputed, disputeId: id } }
        : { kind: "ignored", type };
    }
    // Only the session's id is read: its result is retrieved from Stripe (ADR 080).
    case "identity.verification_session.verified":
    case "identity.verification_session.requires_input":
    case "identity.verification_session.processing":
    case "identity.verification_session.canceled":
      return id ? { kind: "identity_updated", sessionId: id } : { kind: "ignored", type };
    default:
      return { kind: "ignored", type };
  }
}
