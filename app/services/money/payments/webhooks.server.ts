import * as payments from "~/models/money/payment.server";
import { reinstateDispute, reversePayment } from "../payment-reversals.server";
import { refreshRefund } from "../payouts.server";
import type { ProviderEvent } from "~/infra/payment-providers/provider";
import { settleHostedCheckout, settlePayment } from "./settle.server";
import { refreshCheck } from "../../accounts/identity.server";
import { followUnderAgeRefund } from "../../accounts/age-closure.server";

/** Events whose handling records the event in its own transaction (a repeat waits on it there). */
const CLAIMED_WHEN_HANDLED = new Set<ProviderEvent["kind"]>(["payment_reversed", "dispute_won"]);

/** A verified provider event; unknown payments and unknown event types are acknowledged and ignored. */
export async function handleProviderEvent(event: ProviderEvent): Promise<void> {
  // A repeat of an event handled before changes nothing. A reversal or a dispute's win
  // records its event in its own transaction; the others are idempotent by the state they find.
  if (event.eventId && (await payments.providerEventSeen(event.eventId))) return;
  await handle(event);
  if (event.eventId && !CLAIMED_WHEN_HANDLED.has(event.kind)) await payments.recordProviderEvent(event.eventId, event.kind);
}

async function handle(event: ProviderEvent): Promise<void> {
  switch (event.kind) {
    case "payment_succeeded":
    case "payment_failed":
      if (await payments.paymentExists(event.paymentId)) await settlePayment(event.paymentId);
      return;
    case "checkout_completed":
      if (await payments.findPaymentBySession(event.sessionId)) await settleHostedCheckout(event.sessionId);
      return;
    case "payment_reversed":
      await reversePayment(event.paymentId, event.reversal, new Date(), event.eventId ? { id: event.eventId, type: event.kind } : undefined);
      return;
    case "dispute_won":
      await reinstateDispute(
        event.paymentId,
        { disputeId: event.disputeId, amountCents: event.amountCents },
        new Date(),
        event.eventId ? { id: event.eventId, type: event.kind } : undefined,
      );
      return;
    case "refund_updated":
      // A refund this site sent: part of a withdrawal, or an under-age account's (others are ignored).
      if (!(await refreshRefund(event.refundId))) await followUnderAgeRefund(event.refundId);
      return;
    case "identity_updated":
      await refreshCheck(event.sessionId);
      return;
    case "ignored":
      return;
  }
}
