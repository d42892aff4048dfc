import { Elements, PaymentElement, useElements, useStripe } from "@stripe/react-stripe-js";
// The pure entry: Stripe.js is fetched only when loadStripe runs (Stripe mode), never as a side effect of this module.
import { loadStripe } from "@stripe/stripe-js/pure";
import type { Stripe } from "@stripe/stripe-js";
import { useNavigate } from "@remix-run/react";
import { useEffect, useState } from "react";
import { confirmationOutcome, type Confirmation } from "~/shared/payment-toasts";
import { useShowToast } from "./toaster";

let stripePromise: Promise<Stripe | null> | undefined;

type Init = { kind: "coins"; packageId: string } | { kind: "vip"; tier: string };

/**
 * Stripe's Payment Element (JavaScript on): the server creates the PaymentIntent and
 * prices it; after Stripe confirms, the server is asked to verify and credit.
 */
export function StripePayment({ publishableKey, init, label }: { publishableKey: string; init: Init; label: string }) {
  const [clientSecret, setClientSecret] = useState<string>();
  const showToast = useShowToast();
  const navigate = useNavigate();

  useEffect(() => {
    stripePromise ??= loadStripe(publishableKey);
    const url = init.kind === "coins" ? "/api/create-payment-intent" : "/api/vip/subscribe";
    const body = init.kind === "coins" ? { packageId: init.packageId } : { tier: init.tier };
    fetch(url, { method: "POST", headers: { "Content-Type": "application/json", Accept: "application/json" }, body: JSON.stringify(body) })
      .then(async (response) => {
        const data = (await response.json()) as { clientSecret?: string; message?: string };
        if (!response.ok || !data.clientSecret) throw new Error(data.message ?? "Failed to initialize payment");
        setClientSecret(data.clientSecret);
      })
      .catch((error: Error) => {
        showToast({ type: "error", title: "Error", description: error.message || "Failed to initialize payment" });
        navigate("/");
      });
  }, [publishableKey, init.kind, init.kind === "coins" ? init.packageId : init.tier, showToast, navigate]); // eslint-disable-line react-hooks/exhaustive-deps

  if (!clientSecret) return <p role="status">Preparing secure payment…</p>;
  return (
    <Elements stripe={stripePromise!} options={{ clientSecret }}>
      <PayForm label={label} kind={init.kind} />
    </Elements>
  );
}

function PayForm({ label, kind }: { label: string; kind: Init["kind"] }) {
  const stripe = useStripe();
  const elements = useElements();
  const showToast = useShowToast();
  const navigate = useNavigate();
  const [pending, setPending] = useState(false);

  return (
    <form
      className="flex flex-col gap-4"
      onSubmit={async (event) => {
        event.preventDefault();
        if (!stripe || !elements) return;
        setPending(true);
        const { error, paymentIntent } = await stripe.confirmPayment({
          elements,
          redirect: "if_required",
          confirmParams: { return_url: `${window.location.origin}/checkout-success` },
        });
        if (error) {
          setPending(false);
          showToast({ type: "error", title: "Payment Failed", description: error.message ?? "Your payment was not completed." });
          return;
        }
        const response = await fetch("/api/confirm-payment", {
          method: "POST",
          headers: { "Content-Type": "application/json", Accept: "application/json" },
          body: JSON.stringify({ paymentIntentId: paymentIntent?.id }),
        });
        const data = (await response.json().catch(() => ({}))) as Confirmation;
        setPending(false);
        const { toast, to } = confirmationOutcome(kind, response.ok, data);
        showToast(toast);
        if (to) navigate(to);
      }}
    >
      <PaymentElement />
      <button type="submit" disabled={!stripe || pending} className="rounded-md bg-accent px-4 py-2 font-bold text-on-accent disabled:opacity-60">
        {pending ? "Processing..." : label}
      </button>
    </form>
  );
}
