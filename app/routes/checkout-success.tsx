import type { LoaderFunctionArgs } from "@remix-run/node";
import { forgetCachedSession, requireUser } from "~/web/auth.server";
import { successToast } from "~/web/checkout-toasts";
import { expectedFailure, queryParams } from "~/web/http.server";
import { PaymentProviderUnavailable } from "~/infra/payment-providers/provider";
import { confirmPayment, settleHostedCheckout } from "~/services/money/payments/settle.server";
import { redirectWithToast } from "~/web/toast.server";

/** Where Stripe sends the player back (Checkout, or a card that needed a redirect): settle, then home with a toast. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const params = queryParams(request);
  const sessionId = params.get("session_id");
  const paymentIntent = params.get("payment_intent");
  try {
    const settlement = sessionId
      ? await settleHostedCheckout(sessionId, { userId: user.id })
      : paymentIntent
        ? (await confirmPayment(user.id, paymentIntent)).settlement
        : undefined;
    if (!settlement) return redirectWithToast("/", { type: "error", title: "Error", description: "Failed to initialize payment" });
    // Settling wrote (coins, perhaps VIP): the pages this redirects to read the player afresh.
    await forgetCachedSession(request);
    return redirectWithToast(settlement.status === "succeeded" && settlement.purpose === "vip" ? "/vip" : "/", successToast(settlement));
  } catch (error) {
    if (error instanceof PaymentProviderUnavailable) {
      // The charge may well have gone through: the webhook or the stale-payment sweep credits it.
      return redirectWithToast("/", {
        type: "error",
        title: "Payment Not Confirmed Yet",
        description: "The payment service is not answering right now. If you were charged, your coins are added within a few minutes.",
      });
    }
    if (!expectedFailure(error)) throw error;
    return redirectWithToast("/", {
      type: "error",
      title: "Payment Processing Error",
      description: "Please contact support if coins were not added.",
    });
  }
}
