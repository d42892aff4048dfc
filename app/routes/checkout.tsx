import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigation } from "@remix-run/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { z } from "zod";
import { DepositLimitFields } from "~/components/deposit-limit-fields";
import { buttonClass, inputClass } from "~/components/form-fields";
import { PlayerShell } from "~/components/player-shell";
import { StripePayment } from "~/components/stripe-payment";
import { useHydrated } from "~/components/use-hydrated";
import { requireUser } from "~/web/auth.server";
import { identityNeededForDeposit } from "~/services/play-safety/identity-gate.server";
import { shouldOfferLimits } from "~/services/play-safety/responsible-play.server";
import { payWithDemoCard, productFrom, purchaseRefusal } from "~/services/money/checkout.server";
import { getEnv } from "~/infra/env.server";
import { expectedFailure, readForm } from "~/web/http.server";
import { coinsToDecimal } from "~/shared/money";
import { PaymentFailed } from "~/services/money/payments/pricing.server";
import { startHostedCheckout } from "~/services/money/payments/start.server";
import { redirectWithToast } from "~/web/toast.server";
import { checkoutUnavailable, successToast } from "~/web/checkout-toasts";
import { PageError } from "~/components/route-error";

/**
 * /checkout?package=… (coins) and /vip/checkout?tier=… (VIP): one module, two paths.
 * Demo mode takes a test card on our own form; with Stripe, the Payment Element when
 * JavaScript runs and Stripe Checkout when it does not.
 */
const schema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("demo-pay"),
    cardNumber: z
      .string({ error: "Enter the card number" })
      .trim()
      .regex(/^[\d\s-]{12,23}$/, "Enter the card number"),
    expiry: z
      .string({ error: "Enter the expiry as MM/YY" })
      .trim()
      .regex(/^\d{2}\/\d{2}$/, "Enter the expiry as MM/YY"),
    cvc: z
      .string({ error: "Enter the 3 or 4 digit code" })
      .trim()
      .regex(/^\d{3,4}$/, "Enter the 3 or 4 digit code"),
  }),
  z.object({ intent: z.literal("hosted") }),
]);

const INIT_FAILED = { type: "error", title: "Error", description: "Failed to initialize payment" } as const;

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const url = new URL(request.url);
  const product = productFrom(url);
  if (!product) throw await redirectWithToast("/", INIT_FAILED);
  // Where the law asks for identity before the first deposit, the player verifies first (ADR 080).
  if (await identityNeededForDeposit(user.id)) throw redirect("/verify");
  const refusal = await purchaseRefusal(user, product);
  if (refusal) throw await redirectWithToast(product.purpose === "vip" ? "/vip" : "/", checkoutUnavailable(refusal));
  const env = getEnv();
  return {
    offerLimits: await shouldOfferLimits(user.id),
    returnTo: `${url.pathname}${url.search}`,
    product: {
      purpose: product.purpose,
      product: product.product,
      description: product.description,
      amount: coinsToDecimal(BigInt(product.amountCents)),
    },
    demoMode: env.demoMode,
    publishableKey: env.STRIPE_PUBLISHABLE_KEY ?? null,
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const url = new URL(request.url);
  const product = productFrom(url);
  if (!product) return redirectWithToast("/", INIT_FAILED);
  const back = `${url.pathname}${url.search}`;
  // The outcome is the spec's toast either way: a refusal names the first field that does not fit.
  const submission = parseWithZod(await readForm(request), { schema });
  if (submission.status !== "success") {
    const description = Object.values(submission.error ?? {}).find((messages) => messages?.length)?.[0] ?? "Enter the card details";
    return redirectWithToast(back, { type: "error", title: "Payment Failed", description });
  }
  const input = submission.value;
  try {
    if (input.intent === "hosted") {
      const hosted = await startHostedCheckout(user.id, product, getEnv().PUBLIC_URL ?? url.origin);
      return hosted ? redirect(hosted, 303) : redirectWithToast(back, INIT_FAILED);
    }
    const settlement = await payWithDemoCard(user.id, product, input.cardNumber);
    return redirectWithToast(product.purpose === "vip" ? "/vip" : "/", successToast(settlement));
  } catch (error) {
    if (error instanceof PaymentFailed) return redirectWithToast(back, { type: "error", title: "Payment Failed", description: error.message });
    const message = expectedFailure(error)?.message;
    if (message === undefined) throw error;
    return redirectWithToast(back, { type: "error", title: "Payment Failed", description: message });
  }
}

export default function Checkout() {
  const { product, demoMode, publishableKey, offerLimits, returnTo } = useLoaderData<typeof loader>();
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const pending = navigation.state !== "idle";
  const payLabel = `Pay $${product.amount}`;
  return (
    <PlayerShell>
      <main className="mx-auto flex max-w-lg flex-col gap-6 px-4 py-8">
        <h1 className="text-3xl font-black">Checkout</h1>
        <section aria-labelledby="summary-title" className="rounded-xl border border-line bg-surface p-4">
          <h2 id="summary-title" className="font-bold">
            Order summary
          </h2>
          <dl className="mt-2 grid grid-cols-2 gap-1">
            <dt>Item</dt>
            <dd className="text-right font-semibold" data-testid="order-item">
              {product.description}
            </dd>
            <dt>Total</dt>
            <dd className="text-right font-semibold" data-testid="order-total">
              ${product.amount}
            </dd>
          </dl>
        </section>
        {offerLimits ? (
          <section aria-labelledby="limits-offer-title" className="flex flex-col gap-3 rounded-xl border border-line bg-surface p-4" data-testid="limits-offer">
            <h2 id="limits-offer-title" className="font-bold">
              Before your first purchase: set a deposit limit?
            </h2>
            <Form method="post" action="/responsible-play" className="flex flex-col gap-3">
              <input type="hidden" name="intent" value="limits" />
              <input type="hidden" name="returnTo" value={returnTo} />
              <DepositLimitFields idPrefix="checkout" />
              <button type="submit" className={buttonClass}>
                Save limits
              </button>
            </Form>
            <p className="text-sm">
              Or go ahead without one below.{" "}
              <Link to="/responsible-play" className="underline">
                More about responsible play
              </Link>
            </p>
          </section>
        ) : null}
        {demoMode ? (
          <section aria-labelledby="card-title" className="flex flex-col gap-3">
            <p
              className="rounded-md border-2 border-dashed border-amber-500 bg-amber-50 p-3 font-bold text-amber-900 dark:bg-amber-950 dark:text-amber-100"
              role="note"
            >
              Demo mode — no real money. Use card 4242 4242 4242 4242 (succeeds) or 4000 0000 0000 0002 (declined).
            </p>
            <h2 id="card-title" className="font-bold">
              Card details
            </h2>
            <Form method="post" className="flex flex-col gap-3">
              <input type="hidden" name="intent" value="demo-pay" />
              <label className="flex flex-col gap-1 text-sm font-semibold">
                Card number
                <input name="cardNumber" inputMode="numeric" autoComplete="cc-number" required maxLength={23} className={inputClass} />
              </label>
              <div className="grid grid-cols-2 gap-3">
                <label className="flex flex-col gap-1 text-sm font-semibold">
                  Expiry (MM/YY)
                  <input name="expiry" autoComplete="cc-exp" placeholder="MM/YY" required maxLength={5} className={inputClass} />
                </label>
                <label className="flex flex-col gap-1 text-sm font-semibold">
                  CVC
                  <input name="cvc" inputMode="numeric" autoComplete="cc-csc" required maxLength={4} className={inputClass} />
                </label>
              </div>
              <div className="flex gap-3">
                <Link to="/" className="flex-1 rounded-md border border-line-strong px-4 py-2 text-center font-semibold">
                  Cancel
                </Link>
                <button type="submit" disabled={pending} className={`${buttonClass} flex-1`}>
                  {pending ? "Processing..." : payLabel}
                </button>
              </div>
            </Form>
          </section>
        ) : hydrated && publishableKey ? (
          <StripePayment
            publishableKey={publishableKey}
            init={product.purpose === "coins" ? { kind: "coins", packageId: product.product } : { kind: "vip", tier: product.product }}
            label={payLabel}
          />
        ) : (
          <Form method="post" className="flex gap-3">
            <input type="hidden" name="intent" value="hosted" />
            <Link to="/" className="flex-1 rounded-md border border-line-strong px-4 py-2 text-center font-semibold">
              Cancel
            </Link>
            <button type="submit" className={`${buttonClass} flex-1`}>
              {payLabel} with Stripe
            </button>
          </Form>
        )}
      </main>
    </PlayerShell>
  );
}

export const meta: MetaFunction = () => [{ title: "Checkout — Raffle Rush" }];

export function ErrorBoundary() {
  return <PageError title="Checkout could not be shown" />;
}
