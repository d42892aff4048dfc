import type { ActionFunctionArgs } from "@remix-run/node";
import { errorResponse, jsonError } from "~/web/http.server";
import { getLogger } from "~/infra/logger.server";
import { PaymentProviderUnavailable, WebhookSignatureError } from "~/infra/payment-providers/provider";
import { IdentityProviderUnavailable } from "~/infra/identity-providers/provider";
import { handleProviderEvent } from "~/services/money/payments/webhooks.server";
import { paymentProvider } from "~/infra/payment-providers/current-provider.server";

/** Stripe's webhook: the raw body's signature is verified before anything is read from it. */
export async function action({ request }: ActionFunctionArgs) {
  const rawBody = await request.text();
  let event;
  try {
    event = await paymentProvider().parseWebhook(rawBody, request.headers.get("Stripe-Signature"));
  } catch (error) {
    if (error instanceof WebhookSignatureError) {
      getLogger().warn({ event: "webhook_refused", reason: error.message }, "webhook signature refused");
      return jsonError(400, "Invalid signature");
    }
    throw error;
  }
  try {
    await handleProviderEvent(event);
  } catch (error) {
    // Stripe retries an event until it gets a 2xx: a 503 asks for exactly that.
    if (error instanceof PaymentProviderUnavailable || error instanceof IdentityProviderUnavailable) return errorResponse(error)!;
    throw error;
  }
  return Response.json({ received: true });
}

export function loader() {
  throw new Response("Not Found", { status: 404 });
}
