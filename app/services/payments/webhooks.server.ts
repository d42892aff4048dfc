import * as payments from "~/models/payment.server";
import { reversePayment } from "../payment-reversals.server";
import { refreshRefund } from "../payouts.server";
import type { ProviderEvent } from "~/infra/payment-providers/provider";
import { settleHostedCheckout, settlePayment } from "./settle.server";

/** A verified provider event; unknown payments and unknown event types are acknowledged and ignored. */
export async function handleProviderEvent(event: ProviderEvent): Promise<void> {
  switch (event.kind) {
    case "payment_succeeded":
    case "payment_failed":
      if (await payments.paymentExists(event.paymentId)) await settlePayment(event.paymentId);
      return;
    case "checkout_completed":
      if (await payments.findPaymentBySession(event.sessionId)) await settleHostedCheckout(event.sessionId);
      return;
    case "payment_reversed":
      await reversePayment(event.paymentId, event.reversal);
      return;
    case "refund_updated":
      // A refund this site sent as part of a withdrawal (others are not ours: ignored).
      await refreshRefund(event.refundId);
      return;
    case "ignored":
      return;
  }
}
