import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";

/**
 * A local HTTP server that answers like Stripe's API for the calls we make
 * (PaymentIntents, Checkout Sessions and refunds), so the real Stripe SDK and our adapter run
 * unchanged. Tests drive what "the bank" decides through its methods.
 */
type Intent = {
  id: string;
  object: "payment_intent";
  amount: number;
  currency: string;
  description: string | null;
  status: string;
  client_secret: string;
  metadata: Record<string, string>;
  last_payment_error: { message: string } | null;
  /** The card that paid, as an expanded PaymentMethod (its funding: credit, debit, prepaid). */
  payment_method: { id: string; object: "payment_method"; type: "card"; card: { funding: string; last4: string } } | null;
};
type Refund = {
  id: string;
  object: "refund";
  amount: number;
  currency: string;
  payment_intent: string;
  status: "pending" | "succeeded" | "failed" | "canceled";
  failure_reason: string | null;
  metadata: Record<string, string>;
};
type Session = {
  id: string;
  object: "checkout.session";
  url: string;
  payment_intent: string | null;
  payment_status: "paid" | "unpaid";
  status: "open" | "complete" | "expired";
  metadata: Record<string, string>;
  amount_total: number;
};

/** A Stripe Identity VerificationSession, with what the player's documents showed once checked. */
export type VerificationSession = {
  id: string;
  object: "identity.verification_session";
  type: "document";
  status: "requires_input" | "processing" | "verified" | "canceled";
  url: string;
  client_secret: string;
  metadata: Record<string, string>;
  last_error: { code: string; reason: string } | null;
  verified_outputs: { first_name: string; last_name: string; dob: { day: number; month: number; year: number } } | null;
};

export type FakeStripe = {
  url: string;
  identitySessions: Map<string, VerificationSession>;
  /** The player's document checked out: the session is verified with these fields (dob YYYY-MM-DD). */
  verifyIdentity(id: string, fields: { firstName: string; lastName: string; dob: string }): VerificationSession;
  /** The check failed (the document unreadable, say): the session waits for new input, with the reason. */
  failIdentity(id: string, code?: string, reason?: string): VerificationSession;
  intents: Map<string, Intent>;
  refunds: Map<string, Refund>;
  /** What a new refund becomes at once: succeeded (the default), pending, or failed. */
  refundOutcome: Refund["status"];
  /** A pending refund succeeds or fails later, as the bank decides. */
  settleRefund(id: string, status: "succeeded" | "failed", failureReason?: string): Refund;
  requests: { method: string; path: string; body: Record<string, string> }[];
  succeed(id: string): Intent;
  /** A card authorised the payment (capture_method manual): it waits for our capture. */
  authorize(id: string, funding?: "credit" | "debit" | "prepaid"): Intent;
  decline(id: string, message?: string): Intent;
  completeSession(id: string): Session;
  /** The player tried a card on the hosted page and it was declined: the session now has an open PaymentIntent. */
  declineOnSession(id: string, message?: string): Intent;
  /** Runs `run` during a Stripe outage: every call fails with 500 `api_error`, not to be retried. */
  down<T>(run: () => Promise<T>): Promise<T>;
  /** Runs `run` while answers are lost on the way back: every POST does its work, then the caller gets a 500. */
  loseAnswers<T>(run: () => Promise<T>): Promise<T>;
  /** Runs `run` while another request with the same idempotency key seems in progress: every new keyed POST gets 409 `idempotency_key_in_use`. */
  keyInUse<T>(run: () => Promise<T>): Promise<T>;
  /** A day goes by: Stripe keeps an idempotency key for 24 hours, then a repeat makes a new object. */
  forgetIdempotencyKeys(): void;
  close(): Promise<void>;
};

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString("hex")}`;

export async function startFakeStripe(): Promise<FakeStripe> {
  const intents = new Map<string, Intent>();
  const refunds = new Map<string, Refund>();
  const sessions = new Map<string, Session>();
  const identitySessions = new Map<string, VerificationSession>();
  const idempotent = new Map<string, unknown>();
  const requests: FakeStripe["requests"] = [];

  const fake = { outage: false, losing: false, keyInUse: false };
  /** Runs `run` with the fault on, and turns it off after. */
  const during = async <T>(fault: keyof typeof fake, run: () => Promise<T>): Promise<T> => {
    fake[fault] = true;
    try {
      return await run();
    } finally {
      fake[fault] = false;
    }
  };
  /** The PaymentIntent a hosted page made when the player paid (or tried to) on it. */
  const paymentOnSession = (session: Session, status: string, lastError: Intent["last_payment_error"]) => {
    const intent: Intent = {
      id: id("pi"),
      object: "payment_intent",
      amount: session.amount_total,
      currency: "usd",
      description: null,
      status,
      client_secret: "",
      metadata: session.metadata,
      last_payment_error: lastError,
      payment_method: null,
    };
    intents.set(intent.id, intent);
    session.payment_intent = intent.id;
    return intent;
  };
  const server: Server = createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk) => (raw += chunk));
    req.on("end", () => {
      const body = Object.fromEntries(new URLSearchParams(raw));
      const path = (req.url ?? "").split("?")[0]!;
      requests.push({ method: req.method ?? "", path, body });
      const metadata = Object.fromEntries(
        Object.entries(body)
          .filter(([k]) => k.startsWith("metadata[") || k.startsWith("payment_intent_data[metadata]["))
          .map(([k, v]) => [k.replace(/^.*\[(\w+)\]$/, "$1"), v]),
      );
      const unknownError = { error: { type: "api_error", message: "An unknown error occurred" } };
      const send = (status: number, json: unknown, headers: Record<string, string> = {}) => {
        const lost = fake.losing && req.method === "POST";
        res.writeHead(lost ? 500 : status, {
          "Content-Type": "application/json",
          "Request-Id": id("req"),
          ...headers,
          ...(lost ? { "Stripe-Should-Retry": "false" } : {}),
        });
        res.end(JSON.stringify(lost ? unknownError : json));
      };
      if (fake.outage) return send(500, unknownError, { "Stripe-Should-Retry": "false" });
      const key = req.headers["idempotency-key"];
      if (req.method === "POST" && typeof key === "string" && idempotent.has(key)) return send(200, idempotent.get(key));
      if (req.method === "POST" && typeof key === "string" && fake.keyInUse) {
        const message = "There is currently another in-progress request using this Idempotent Key. Retry after a brief wait.";
        return send(409, { error: { type: "invalid_request_error", code: "idempotency_key_in_use", message } }, { "Stripe-Should-Retry": "false" });
      }
      const remember = (json: unknown) => {
        if (typeof key === "string") idempotent.set(key, json);
        send(200, json);
      };

      if (req.method === "POST" && path === "/v1/payment_intents") {
        const intent: Intent = {
          id: id("pi"),
          object: "payment_intent",
          amount: Number(body.amount),
          currency: body.currency ?? "usd",
          description: body.description ?? null,
          status: "requires_payment_method",
          client_secret: "",
          metadata,
          last_payment_error: null,
          payment_method: null,
        };
        intent.client_secret = `${intent.id}_secret_${randomBytes(8).toString("hex")}`;
        intents.set(intent.id, intent);
        return remember(intent);
      }
      if (req.method === "POST" && path === "/v1/refunds") {
        const intent = intents.get(body.payment_intent ?? "");
        if (!intent) return send(404, { error: { type: "invalid_request_error", message: "No such payment_intent" } });
        const amount = Number(body.amount ?? intent.amount);
        const already = [...refunds.values()].filter((r) => r.payment_intent === intent.id && r.status !== "failed" && r.status !== "canceled");
        if (intent.status !== "succeeded" || already.reduce((sum, r) => sum + r.amount, 0) + amount > intent.amount) {
          return send(400, {
            error: { type: "invalid_request_error", code: "charge_already_refunded", message: "Refund amount is greater than unrefunded amount on charge" },
          });
        }
        const refund: Refund = {
          id: id("re"),
          object: "refund",
          amount,
          currency: intent.currency,
          payment_intent: intent.id,
          status: fakeStripe.refundOutcome,
          failure_reason: fakeStripe.refundOutcome === "failed" ? "expired_or_canceled_card" : null,
          metadata,
        };
        refunds.set(refund.id, refund);
        return remember(refund);
      }
      if (req.method === "GET" && path === "/v1/refunds") {
        // The payment's refunds, newest first, in one page.
        const intent = new URL(req.url ?? "", "http://stripe.test").searchParams.get("payment_intent");
        const data = [...refunds.values()].filter((r) => intent === null || r.payment_intent === intent).reverse();
        return send(200, { object: "list", url: "/v1/refunds", has_more: false, data });
      }
      const refundMatch = /^\/v1\/refunds\/([\w]+)$/.exec(path);
      if (req.method === "GET" && refundMatch) {
        const refund = refunds.get(refundMatch[1]!);
        return refund ? send(200, refund) : send(404, { error: { type: "invalid_request_error", message: "No such refund" } });
      }
      const intentMatch = /^\/v1\/payment_intents\/([\w]+)$/.exec(path);
      if (req.method === "GET" && intentMatch) {
        const intent = intents.get(intentMatch[1]!);
        return intent ? send(200, intent) : send(404, { error: { type: "invalid_request_error", message: "No such payment_intent" } });
      }
      const cancelMatch = /^\/v1\/payment_intents\/([\w]+)\/cancel$/.exec(path);
      if (req.method === "POST" && cancelMatch) {
        const intent = intents.get(cancelMatch[1]!);
        if (!intent) return send(404, { error: { type: "invalid_request_error", message: "No such payment_intent" } });
        if (!["requires_payment_method", "requires_confirmation", "requires_action", "requires_capture"].includes(intent.status)) {
          return send(400, {
            error: { type: "invalid_request_error", code: "payment_intent_unexpected_state", message: `This PaymentIntent's status is ${intent.status}` },
          });
        }
        intent.status = "canceled";
        return send(200, intent);
      }
      const captureMatch = /^\/v1\/payment_intents\/([\w]+)\/capture$/.exec(path);
      if (req.method === "POST" && captureMatch) {
        const intent = intents.get(captureMatch[1]!);
        if (!intent) return send(404, { error: { type: "invalid_request_error", message: "No such payment_intent" } });
        if (intent.status !== "requires_capture") {
          return send(400, {
            error: { type: "invalid_request_error", code: "payment_intent_unexpected_state", message: `This PaymentIntent's status is ${intent.status}` },
          });
        }
        intent.status = "succeeded";
        return send(200, intent);
      }
      const expireMatch = /^\/v1\/checkout\/sessions\/([\w]+)\/expire$/.exec(path);
      if (req.method === "POST" && expireMatch) {
        const session = sessions.get(expireMatch[1]!);
        if (!session) return send(404, { error: { type: "invalid_request_error", message: "No such session" } });
        if (session.status !== "open") {
          return send(400, { error: { type: "invalid_request_error", message: `Only Checkout Sessions with a status in ["open"] can be expired` } });
        }
        session.status = "expired";
        // Stripe cancels the session's PaymentIntent with it (one left after a declined card).
        const intent = session.payment_intent ? intents.get(session.payment_intent) : undefined;
        if (intent && intent.status === "requires_payment_method") intent.status = "canceled";
        return send(200, session);
      }
      if (req.method === "POST" && path === "/v1/checkout/sessions") {
        const session: Session = {
          id: id("cs_test"),
          object: "checkout.session",
          url: `https://checkout.stripe.test/pay/${id("x")}`,
          payment_intent: null,
          payment_status: "unpaid",
          status: "open",
          metadata,
          amount_total: Number(body["line_items[0][price_data][unit_amount]"]),
        };
        sessions.set(session.id, session);
        return remember(session);
      }
      const sessionMatch = /^\/v1\/checkout\/sessions\/([\w]+)$/.exec(path);
      if (req.method === "GET" && sessionMatch) {
        const session = sessions.get(sessionMatch[1]!);
        return session ? send(200, session) : send(404, { error: { type: "invalid_request_error", message: "No such session" } });
      }
      if (req.method === "POST" && path === "/v1/identity/verification_sessions") {
        const vs: VerificationSession = {
          id: id("vs"),
          object: "identity.verification_session",
          type: "document",
          status: "requires_input",
          url: `https://verify.stripe.test/start/${id("x")}`,
          client_secret: `vs_secret_${randomBytes(8).toString("hex")}`,
          metadata,
          last_error: null,
          verified_outputs: null,
        };
        identitySessions.set(vs.id, vs);
        return remember(vs);
      }
      const identityMatch = /^\/v1\/identity\/verification_sessions\/([\w]+)$/.exec(path);
      if (req.method === "GET" && identityMatch) {
        const vs = identitySessions.get(identityMatch[1]!);
        return vs ? send(200, vs) : send(404, { error: { type: "invalid_request_error", message: "No such verification session" } });
      }
      send(404, { error: { type: "invalid_request_error", message: `Unrecognized request URL (${req.method}: ${path})` } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;

  const fakeStripe: FakeStripe = {
    url: `http://127.0.0.1:${port}`,
    identitySessions,
    verifyIdentity(sessionId, { firstName, lastName, dob }) {
      const vs = identitySessions.get(sessionId)!;
      const [year, month, day] = dob.split("-").map(Number) as [number, number, number];
      vs.status = "verified";
      vs.last_error = null;
      vs.verified_outputs = { first_name: firstName, last_name: lastName, dob: { day, month, year } };
      return vs;
    },
    failIdentity(sessionId, code = "document_unverified_other", reason = "The document could not be read.") {
      const vs = identitySessions.get(sessionId)!;
      vs.status = "requires_input";
      vs.last_error = { code, reason };
      return vs;
    },
    intents,
    refunds,
    refundOutcome: "succeeded",
    settleRefund(refundId, status, failureReason = "expired_or_canceled_card") {
      const refund = refunds.get(refundId)!;
      refund.status = status;
      refund.failure_reason = status === "failed" ? failureReason : null;
      return refund;
    },
    requests,
    down: (run) => during("outage", run),
    loseAnswers: (run) => during("losing", run),
    keyInUse: (run) => during("keyInUse", run),
    forgetIdempotencyKeys: () => idempotent.clear(),
    succeed(intentId) {
      const intent = intents.get(intentId)!;
      intent.status = "succeeded";
      return intent;
    },
    authorize(intentId, funding = "debit") {
      const intent = intents.get(intentId)!;
      intent.status = "requires_capture";
      intent.payment_method = { id: id("pm"), object: "payment_method", type: "card", card: { funding, last4: funding === "credit" ? "4444" : "5556" } };
      return intent;
    },
    decline(intentId, message = "Your card was declined.") {
      const intent = intents.get(intentId)!;
      intent.status = "requires_payment_method";
      intent.last_payment_error = { message };
      return intent;
    },
    declineOnSession(sessionId, message = "Your card was declined.") {
      return paymentOnSession(sessions.get(sessionId)!, "requires_payment_method", { message });
    },
    completeSession(sessionId) {
      const session = sessions.get(sessionId)!;
      paymentOnSession(session, "succeeded", null);
      session.payment_status = "paid";
      session.status = "complete";
      return session;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  return fakeStripe;
}
