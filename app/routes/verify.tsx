import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { buttonClass } from "~/components/form-fields";
import { BackHome } from "~/components/legal-page";
import { PageError } from "~/components/route-error";
import { IdentityProviderUnavailable } from "~/infra/identity-providers/provider";
import { identityStatus, refreshCheck, startVerification } from "~/services/accounts/identity.server";
import { forgetCachedSession, requireUser } from "~/web/auth.server";
import { expectedFailure, queryParams } from "~/web/http.server";

/**
 * Verifying your identity (PRODUCT.md "Know your player"; ADR 080): what is needed, why, and
 * what happens to the documents; the button sends the player to the provider's page. The
 * provider sends them back here with `?session=`: the result is read from the provider.
 */
const SESSION = /^[\w]{1,255}$/;

function unavailable(error: IdentityProviderUnavailable) {
  return Response.json({ unavailable: error.message }, { status: 503, headers: { "Retry-After": "60", "Cache-Control": "no-store" } });
}

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const session = queryParams(request).get("session");
  if (session !== null) {
    if (!SESSION.test(session)) throw new Response("No identity check of yours has that id.", { status: 404 });
    try {
      await refreshCheck(session, user.id);
    } catch (error) {
      if (error instanceof IdentityProviderUnavailable) throw unavailable(error);
      const failure = expectedFailure(error);
      if (failure) throw new Response(failure.message, { status: failure.status });
      throw error;
    }
    await forgetCachedSession(request);
    throw redirect("/verify");
  }
  return identityStatus(user);
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  try {
    const started = await startVerification(user.id, new URL(request.url).origin);
    return "url" in started ? redirect(started.url, 303) : redirect("/verify", 303);
  } catch (error) {
    if (error instanceof IdentityProviderUnavailable) return unavailable(error);
    throw error;
  }
}

/** The 503's Retry-After reaches the page's answer. */
export const headers: HeadersFunction = ({ actionHeaders, errorHeaders }) => {
  const headers = new Headers();
  const retry = actionHeaders.get("Retry-After") ?? errorHeaders?.get("Retry-After");
  if (retry) headers.set("Retry-After", retry);
  return headers;
};

const STATUS_TEXT = {
  pending: "Your check has started but is not finished yet. If you have finished it at the provider, the result arrives within a few minutes.",
  failed: "Your last check did not go through.",
  under_age: "Your check showed you are under 18: the account is closed and card payments refunded.",
  verified: "",
} as const;

export default function Verify() {
  const data = useLoaderData<typeof loader>();
  const refused = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  return (
    <main className="mx-auto flex max-w-2xl flex-col gap-6 px-4 py-10">
      <BackHome />
      <h1 className="text-3xl font-black">Verify your identity</h1>
      {data.verified ? (
        <section role="status" data-testid="identity-verified" className="rounded-xl border border-emerald-400 p-4">
          <p className="font-semibold">Your identity is verified. Thank you.</p>
          <p className="mt-2 text-sm">
            <Link to="/checkout?package=package_2" className="underline">
              Buy coins
            </Link>{" "}
            or{" "}
            <Link to="/" className="underline">
              go to the raffles
            </Link>
            .
          </p>
        </section>
      ) : (
        <>
          <section aria-labelledby="why-title" className="rounded-xl border border-line p-4">
            <h2 id="why-title" className="text-xl font-bold">
              What we need and why
            </h2>
            <ul className="mt-2 flex list-disc flex-col gap-1 pl-5 text-sm">
              <li>A photo of an identity document (passport, driving licence or national identity card) and a selfie to match it.</li>
              {data.requiredBeforePlay ? (
                <li data-testid="identity-why">{data.why}</li>
              ) : (
                <li>We check every player&apos;s identity before withdrawals above $100 in 30 days, as anti-money-laundering rules require.</li>
              )}
              <li>We check that you are 18 or older. If the check shows you are not, the account is closed and your card payments are refunded.</li>
            </ul>
          </section>
          <section aria-labelledby="documents-title" className="rounded-xl border border-line p-4">
            <h2 id="documents-title" className="text-xl font-bold">
              What happens to your documents
            </h2>
            <p className="mt-1 text-sm">
              The check is made by our identity provider, which keeps the document photos and the selfie under its own privacy policy. We never see or store
              them: we keep only the result, the provider&apos;s reference for the check, and the name and date of birth it verified.
            </p>
          </section>
          {data.latest && data.latest.status !== "verified" ? (
            <p role="status" data-testid="identity-latest" className="font-semibold">
              {STATUS_TEXT[data.latest.status]} {data.latest.status === "failed" ? data.latest.failureReason : null}
            </p>
          ) : null}
          {refused && "unavailable" in refused ? (
            <p role="alert" data-testid="identity-unavailable" className="font-semibold text-red-700 dark:text-red-400">
              {refused.unavailable} Until it is checked, deposits and play that need it stay closed.
            </p>
          ) : null}
          <Form method="post">
            <button type="submit" disabled={busy} className={buttonClass} data-testid="start-verification">
              {busy ? "Starting…" : data.latest?.status === "failed" ? "Try again" : "Verify my identity"}
            </button>
          </Form>
        </>
      )}
    </main>
  );
}

export const meta: MetaFunction = () => [{ title: "Verify your identity · Raffle Rush" }];

export function ErrorBoundary() {
  return (
    <PageError
      title="Your identity could not be checked just now"
      back={{ to: "/verify", label: "Back to verification" }}
      statuses={{
        503: {
          title: "The identity check service is not answering",
          message:
            "We could not read your check's result. Nothing was changed; deposits and play that need a verified identity stay closed until it is. Please try again in a minute.",
        },
        404: { title: "No such identity check", message: "No identity check of yours has that reference." },
      }}
    />
  );
}
