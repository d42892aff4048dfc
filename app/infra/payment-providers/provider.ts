/**
 * The one interface every card acquirer implements (PRODUCT.md: Stripe today; another
 * acquirer must be one new adapter, not a rewrite). Amounts are integer cents.
 */
/** `authorized`: the card is authorised and the charge waits for our capture (the card's funding is read first: ADR 080). */
export type ProviderPaymentStatus = "requires_payment" | "authorized" | "processing" | "succeeded" | "failed" | "canceled";

/** What kind of card paid (Stripe's `payment_method.card.funding`); some places ban credit cards for gambling. */
export type CardFunding = "credit" | "debit" | "prepaid" | "unknown";

export type ProviderPayment = {
  id: string;
  status: ProviderPaymentStatus;
  amountCents: number;
  currency: string;
  metadata: Record<string, string>;
  failureMessage?: string;
  /** Known once a card has been given (authorised). */
  cardFunding?: CardFunding;
};

/**
 * Money sent back to the card a payment came from. `pending` until the bank settles it;
 * `failed` (with the provider's reason) means nothing was sent.
 */
export type ProviderRefund = {
  id: string;
  /** `refused`: the provider would not make it (the payment was refunded or disputed already). */
  status: "pending" | "succeeded" | "failed" | "refused";
  failureReason?: string;
  /** As the provider holds them, when it was read back from the provider. */
  amountCents?: number;
  metadata?: Record<string, string>;
};

/** A provider event as we read it; `eventId` (the provider's id for it) tells a repeat apart. */
export type ProviderEvent = ProviderEventBody & { eventId?: string };

type ProviderEventBody =
  | { kind: "payment_succeeded"; paymentId: string }
  | { kind: "payment_failed"; paymentId: string; message?: string }
  | { kind: "checkout_completed"; sessionId: string; paymentId: string | null }
  | { kind: "payment_reversed"; paymentId: string; reversal: Reversal }
  /** A dispute closed in our favour: what it took is given back (ADR 108). */
  | { kind: "dispute_won"; paymentId: string; disputeId: string; amountCents: number }
  | { kind: "refund_updated"; refundId: string }
  /** An identity VerificationSession changed (Stripe Identity shares the payments' webhook and secret). */
  | { kind: "identity_updated"; sessionId: string }
  | { kind: "ignored"; type: string };

/**
 * Money taken back from a payment: a refund (`refundedCents`: the payment's refunded total
 * so far, as the provider reports it) or a dispute (`amountCents` disputed; each dispute is
 * taken back once, whichever of its events comes first).
 */
export type Reversal = { reason: "refund"; refundedCents: number } | { reason: "dispute"; amountCents: number; disputeId: string };

export class WebhookSignatureError extends Error {
  name = "WebhookSignatureError";
}

/**
 * The provider could not be reached, or answered that it cannot serve now (its own
 * outage, its rate limit). Not our bug and not the player's: they get a 503 and are
 * asked to try again. The payment's reservation is marked failed (it holds nothing); a
 * charge the provider did make is credited later by the webhook or the stale-payment sweep.
 */
export class PaymentProviderUnavailable extends Error {
  name = "PaymentProviderUnavailable";
  constructor(readonly cause: unknown) {
    super("The payment service is not answering right now. Please try again in a minute.");
  }
}

export interface PaymentProvider {
  readonly name: "stripe" | "demo";
  createPayment(input: {
    amountCents: number;
    description: string;
    metadata: Record<string, string>;
    idempotencyKey: string;
  }): Promise<{ id: string; clientSecret: string }>;
  getPayment(id: string): Promise<ProviderPayment>;
  /**
   * Makes a payment nobody has paid impossible to pay (a card form left open), and
   * returns it as it then is: canceled, or what it had already become (succeeded,
   * processing) when it was too late to cancel.
   */
  cancelPayment(id: string): Promise<ProviderPayment>;
  /** Takes an authorised payment's money (payments are authorised first, then captured); returns it as it then is. */
  capturePayment(id: string): Promise<ProviderPayment>;
  /** A page hosted by the provider, for browsers without JavaScript; undefined when the provider has none. */
  createHostedCheckout?(input: {
    amountCents: number;
    description: string;
    metadata: Record<string, string>;
    successUrl: string;
    cancelUrl: string;
    idempotencyKey: string;
  }): Promise<{ id: string; url: string }>;
  getHostedCheckout?(id: string): Promise<{ id: string; paymentId: string | null; paid: boolean; expired: boolean; metadata: Record<string, string> }>;
  /** Makes an unpaid hosted checkout impossible to pay; one already paid is left as it is. */
  expireHostedCheckout?(id: string): Promise<void>;
  /**
   * Sends `amountCents` of a succeeded payment back to its card. The same idempotency key
   * returns the same refund however long after (Stripe forgets a key after 24 hours: the
   * refund is found by the key it carries, or one made before refunds carried it by its
   * metadata), so a retry after a crash, an outage or a lost answer sends nothing twice.
   */
  refundPayment(input: { paymentId: string; amountCents: number; idempotencyKey: string; metadata: Record<string, string> }): Promise<ProviderRefund>;
  getRefund(id: string): Promise<ProviderRefund>;
  /**
   * Turns a debit card for payouts into the provider's token, so that we never store the
   * number. No CVV: payouts do not need one.
   */
  tokenizePayoutCard(card: { number: string; expMonth: number; expYear: number }): Promise<string>;
  /** Verifies and reads a webhook; throws WebhookSignatureError for a forged or stale one. */
  parseWebhook(rawBody: string, signature: string | null): Promise<ProviderEvent>;
}
