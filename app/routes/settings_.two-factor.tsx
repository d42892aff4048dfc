import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { buttonClass, inputClass } from "~/components/form-fields";
import { PlayerShell } from "~/components/player-shell";
import { RecoveryCodeList, TotpEnrolment } from "~/components/second-factor";
import { PageError } from "~/components/route-error";
import { requireSession } from "~/services/auth.server";
import { readForm } from "~/infra/http.server";
import { turnOffTwoFactor, turnOnTwoFactor } from "~/services/player-two-factor.server";
import { RateLimited } from "~/services/rate-limit.server";
import {
  beginEnrolment,
  clearEnrolmentCookie,
  enrolmentBelongsTo,
  enrolmentCookieFor,
  hasSecondFactor,
  pendingEnrolment,
  recoveryCodesLeft,
} from "~/services/second-factor.server";
import { redirectWithToast } from "~/infra/toast.server";
import { passActionHeaders } from "~/shared/action-headers";

const schema = z.object({ intent: z.enum(["begin", "confirm", "disable"]), code: z.string().max(100).default("") });

/** Two-factor authentication for the player's own account (ADR 036), a page that works without JavaScript. */
export async function loader({ request }: LoaderFunctionArgs) {
  const session = await requireSession(request);
  const { id, email, isAdmin } = session.user;
  if (await hasSecondFactor(id)) return { state: "on" as const, isAdmin, codesLeft: await recoveryCodesLeft(id), enrolment: null };
  const enrolment = (await enrolmentBelongsTo(request, session.id)) ? await pendingEnrolment(id, email) : null;
  return { state: "off" as const, isAdmin, codesLeft: 0, enrolment };
}

export async function action({ request }: ActionFunctionArgs) {
  const session = await requireSession(request);
  const parsed = schema.safeParse(Object.fromEntries(await readForm(request)));
  if (!parsed.success) return Response.json({ error: "Choose what to do." }, { status: 400 });
  const { intent, code } = parsed.data;
  try {
    if (intent === "begin") {
      if (!(await beginEnrolment(session.user.id, session.user.email))) return Response.json({ error: "Two-factor authentication is already on." }, { status: 409 });
      return redirect("/settings/two-factor", { headers: { "Set-Cookie": await enrolmentCookieFor(session.id) } });
    }
    if (intent === "confirm") {
      const codes = (await enrolmentBelongsTo(request, session.id)) ? await turnOnTwoFactor(session.user.id, code) : null;
      if (codes) return Response.json({ recoveryCodes: codes }, { headers: { "Set-Cookie": await clearEnrolmentCookie(), "Cache-Control": "no-store" } });
      return Response.json({ error: "That code is not right. Type the code the app shows now." }, { status: 400 });
    }
    const check = await turnOffTwoFactor(session.user, code);
    if (check.ok) return redirectWithToast("/settings/two-factor", { type: "success", title: "Two-factor authentication is off" });
    const error = check.reason === "admin" ? "An admin's second factor guards the back office: it cannot be turned off here." : "That code is not right. Type the code the app shows now, or a recovery code.";
    return Response.json({ error }, { status: 400 });
  } catch (error) {
    if (!(error instanceof RateLimited)) throw error;
    return Response.json({ error: error.message }, { status: 429, headers: { "Retry-After": String(error.retryAfterSeconds) } });
  }
}

type ActionData = { error?: string; recoveryCodes?: string[] };

export default function TwoFactorSettings() {
  const data = useLoaderData<typeof loader>();
  const result = useActionData<ActionData>();
  const busy = useNavigation().state === "submitting";
  return (
    <PlayerShell>
      <main className="mx-auto flex max-w-md flex-col gap-4 px-4 py-8">
        <h1 className="text-3xl font-bold">Two-factor authentication</h1>
        {result?.error ? <p role="alert" className="rounded bg-red-100 p-3 text-red-900">{result.error}</p> : null}
        {result?.recoveryCodes ? (
          <>
            <p>Two-factor authentication is on: signing in now asks for a code from your app.</p>
            <RecoveryCodeList codes={result.recoveryCodes} />
          </>
        ) : data.state === "on" ? (
          <>
            <p>On: signing in asks for a code from your authenticator app. Recovery codes left: {data.codesLeft}.</p>
            {data.isAdmin ? null : (
              <Form method="post" className="flex flex-col gap-4">
                <input type="hidden" name="intent" value="disable" />
                <label htmlFor="disable-code" className="text-sm font-semibold">Code to turn it off</label>
                <input id="disable-code" name="code" inputMode="numeric" autoComplete="one-time-code" required className={inputClass} />
                <button type="submit" className={buttonClass} disabled={busy}>Turn off two-factor authentication</button>
              </Form>
            )}
          </>
        ) : data.enrolment ? (
          <TotpEnrolment enrolment={data.enrolment} busy={busy} />
        ) : (
          <Form method="post" className="flex flex-col gap-4">
            <p>Off. With it on, signing in also asks for a code from an authenticator app on your phone.</p>
            <input type="hidden" name="intent" value="begin" />
            <button type="submit" className={buttonClass} disabled={busy}>Set up two-factor authentication</button>
          </Form>
        )}
        <Link to="/settings" className="underline">Back to settings</Link>
      </main>
    </PlayerShell>
  );
}

export const headers = passActionHeaders("Retry-After", "Set-Cookie", "Cache-Control");

export const meta: MetaFunction = () => [{ title: "Two-factor authentication — Raffle Rush" }];

export function ErrorBoundary() {
  return <PageError title="Two-factor authentication could not be shown here" back={{ to: "/settings", label: "Back to settings" }} />;
}
