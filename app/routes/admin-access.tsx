import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { buttonClass, inputClass } from "~/components/form-fields";
import { RecoveryCodeList, TotpEnrolment } from "~/components/second-factor";
import { confirmAdminEnrolment, enrolWithKey, gateStep, mayPassWithPasskey, passAdminGate, passAdminGateWithPasskey } from "~/services/admin-gate.server";
import { getSession, requireSession } from "~/services/auth.server";
import { readForm } from "~/infra/http.server";
import { PageError } from "~/components/route-error";
import { RateLimited } from "~/services/rate-limit.server";
import { clearEnrolmentCookie, enrolmentBelongsTo, enrolmentCookieFor, pendingEnrolment } from "~/services/second-factor.server";
import { passActionHeaders } from "~/shared/action-headers";

const schema = z.object({
  intent: z.enum(["key", "confirm", "code", "passkey"]).default("code"),
  key: z.string().max(500).default(""),
  code: z.string().max(100).default(""),
});

const DENIED = "Access Denied: invalid credentials or insufficient privileges.";

/** The spec's three states (not signed in, signed in without the admin flag, admin); an admin without a factor enrols first (ADR 036). */
export async function loader({ request }: LoaderFunctionArgs) {
  if (!(await getSession(request))) return { state: "unauthenticated" as const };
  // Anyone still finishing sign-up goes through onboarding first.
  const session = await requireSession(request);
  if (!session.user.isAdmin) return { state: "restricted" as const };
  const step = await gateStep(session);
  const enrolment = step === "key" && (await enrolmentBelongsTo(request, session.id)) ? await pendingEnrolment(session.user.id, session.user.email) : null;
  return { state: "admin" as const, step, enrolment, passkey: step === "code" && (await mayPassWithPasskey(session)) };
}

/** Keys and codes are checked on the server only; a wrong one is a 400 that changes nothing but the audit log and the limit. */
export async function action({ request }: ActionFunctionArgs) {
  const session = await requireSession(request);
  const parsed = schema.safeParse(Object.fromEntries(await readForm(request)));
  const input = parsed.success ? parsed.data : { intent: "code" as const, key: "", code: "" };
  try {
    if (input.intent === "key") {
      const enrolment = await enrolWithKey(session, input.key);
      if (enrolment) return redirect("/admin-access", { headers: { "Set-Cookie": await enrolmentCookieFor(session.id) } });
    } else if (input.intent === "confirm") {
      const codes = await confirmAdminEnrolment(session, input.code, await enrolmentBelongsTo(request, session.id));
      if (codes) return Response.json({ recoveryCodes: codes }, { headers: { "Set-Cookie": await clearEnrolmentCookie(), "Cache-Control": "no-store" } });
    } else if (input.intent === "passkey") {
      if (await passAdminGateWithPasskey(session)) return redirect("/admin");
    } else if (await passAdminGate(session, input.code)) {
      return redirect("/admin");
    }
  } catch (error) {
    if (!(error instanceof RateLimited)) throw error;
    return Response.json({ error: error.message }, { status: 429, headers: { "Retry-After": String(error.retryAfterSeconds) } });
  }
  return Response.json({ error: DENIED }, { status: 400 });
}

type ActionData = { error?: string; recoveryCodes?: string[] };

export default function AdminAccess() {
  const data = useLoaderData<typeof loader>();
  const result = useActionData<ActionData>();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  if (data.state === "unauthenticated") {
    return (
      <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center gap-6 px-4 text-center">
        <h1 className="text-3xl font-bold">Authentication Required</h1>
        <p>Please login first to access this area.</p>
        <Link to="/" className={buttonClass}>Go to Homepage</Link>
        <Link to="/api/login?returnTo=%2Fadmin-access" className="underline">Sign in</Link>
      </main>
    );
  }
  if (data.state === "restricted") {
    return (
      <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center gap-6 px-4 text-center">
        <h1 className="text-3xl font-bold">Access Restricted</h1>
        <p>This area is restricted to authorized personnel only.</p>
        <Link to="/" className={buttonClass}>Return Home</Link>
      </main>
    );
  }
  const error = result?.error ? <p role="alert" className="rounded bg-red-100 p-3 text-red-900">{result.error}</p> : null;
  if (result?.recoveryCodes) {
    return (
      <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center gap-6 px-4">
        <h1 className="text-3xl font-bold">Two-factor authentication is on</h1>
        <RecoveryCodeList codes={result.recoveryCodes} />
        <Link to="/admin" className={buttonClass} reloadDocument>Continue to the dashboard</Link>
      </main>
    );
  }
  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center gap-6 px-4 text-center">
      <h1 className="text-3xl font-bold">Administrative Access</h1>
      {error}
      {data.passkey ? (
        <Form method="post" reloadDocument className="flex flex-col gap-2">
          <input type="hidden" name="intent" value="passkey" />
          <p>You signed in with a passkey: it counts as your second factor.</p>
          <button type="submit" className={buttonClass} disabled={busy}>Continue with your passkey</button>
        </Form>
      ) : null}
      {data.step === "code" ? (
        <Form method="post" reloadDocument className="flex flex-col gap-4 text-left">
          <input type="hidden" name="intent" value="code" />
          <label htmlFor="code" className="text-sm font-semibold">Authentication code</label>
          <p id="code-hint" className="text-sm">The 6-digit code from your authenticator app, or one of your recovery codes.</p>
          <input id="code" name="code" aria-describedby="code-hint" inputMode="numeric" autoComplete="one-time-code" required className={inputClass} />
          <button type="submit" className={buttonClass} disabled={busy}>{busy ? "Checking..." : "Access Dashboard"}</button>
        </Form>
      ) : data.enrolment ? (
        <TotpEnrolment enrolment={data.enrolment} busy={busy} />
      ) : (
        <Form method="post" reloadDocument className="flex flex-col gap-4 text-left">
          <p>Set up two-factor authentication: first the security key your operator gave you, then your authenticator app.</p>
          <input type="hidden" name="intent" value="key" />
          <label htmlFor="key" className="text-sm font-semibold">Security Key</label>
          <input id="key" name="key" type="password" placeholder="Enter administrative key" autoComplete="off" required className={inputClass} />
          <button type="submit" className={buttonClass} disabled={busy}>{busy ? "Checking..." : "Set up two-factor authentication"}</button>
        </Form>
      )}
      <Link to="/" className="underline">Back to Site</Link>
    </main>
  );
}

/** The action's Retry-After, the enrolment cookie's end and no-store (recovery codes) reach the page's answer. */
export const headers = passActionHeaders("Retry-After", "Set-Cookie", "Cache-Control");

export const meta: MetaFunction = () => [{ title: "Admin access — Raffle Rush" }];

export function ErrorBoundary() {
  return <PageError title="The admin sign-in could not be shown" />;
}
