import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { buttonClass, FormErrors } from "~/components/form-fields";
import { CodeField, useSchemaForm } from "~/components/schema-form";
import { PlayerShell } from "~/components/player-shell";
import { RecoveryCodeList, TotpEnrolment } from "~/components/second-factor";
import { PageError } from "~/components/route-error";
import { requireSession } from "~/web/auth.server";
import { readForm } from "~/web/http.server";
import { turnOffTwoFactor, turnOnTwoFactor } from "~/services/accounts/player-two-factor.server";
import { RateLimited } from "~/services/system/rate-limit.server";
import { beginEnrolment, hasSecondFactor, pendingEnrolment, recoveryCodesLeft } from "~/services/accounts/second-factor.server";
import { clearEnrolmentCookie, enrolmentBelongsTo, enrolmentCookieFor } from "~/web/enrolment-cookie.server";
import { redirectWithToast } from "~/web/toast.server";
import { passActionHeaders } from "~/web/action-headers";
import { replyIntent, unshownErrors } from "~/shared/form-reply";
import { beginEnrolmentSchema, playerTwoFactorSchema as schema, turnOffSchema } from "~/shared/second-factor-forms";

/** Two-factor authentication for the player's own account, a page that works without JavaScript. */
export async function loader({ request }: LoaderFunctionArgs) {
  const session = await requireSession(request);
  const { id, email, isAdmin } = session.user;
  if (await hasSecondFactor(id)) return { state: "on" as const, isAdmin, codesLeft: await recoveryCodesLeft(id), enrolment: null };
  const enrolment = (await enrolmentBelongsTo(request, session.id)) ? await pendingEnrolment(id, email) : null;
  return { state: "off" as const, isAdmin, codesLeft: 0, enrolment };
}

/** A refusal is a conform reply beside the form's field (400, 409 already on, 429 limited); codes are counted by the services. */
export async function action({ request }: ActionFunctionArgs) {
  const session = await requireSession(request);
  const submission = parseWithZod(await readForm(request), { schema });
  if (submission.status !== "success") return Response.json(submission.reply({ hideFields: ["code"] }), { status: 400 });
  const input = submission.value;
  try {
    if (input.intent === "begin") {
      if (!(await beginEnrolment(session.user.id, session.user.email))) {
        return Response.json(submission.reply({ formErrors: ["Two-factor authentication is already on."] }), { status: 409 });
      }
      return redirect("/settings/two-factor", { headers: { "Set-Cookie": await enrolmentCookieFor(session.id) } });
    }
    if (input.intent === "confirm") {
      const codes = (await enrolmentBelongsTo(request, session.id)) ? await turnOnTwoFactor(session.user.id, input.code) : null;
      if (codes) return Response.json({ recoveryCodes: codes }, { headers: { "Set-Cookie": await clearEnrolmentCookie(), "Cache-Control": "no-store" } });
      return Response.json(submission.reply({ fieldErrors: { code: ["That code is not right. Type the code the app shows now."] }, hideFields: ["code"] }), {
        status: 400,
      });
    }
    const check = await turnOffTwoFactor(session.user, input.code);
    if (check.ok) return redirectWithToast("/settings/two-factor", { type: "success", title: "Two-factor authentication is off" });
    const error =
      check.reason === "admin"
        ? "An admin's second factor guards the back office: it cannot be turned off here."
        : "That code is not right. Type the code the app shows now, or a recovery code.";
    return Response.json(submission.reply({ fieldErrors: { code: [error] }, hideFields: ["code"] }), { status: 400 });
  } catch (error) {
    if (!(error instanceof RateLimited)) throw error;
    return Response.json(submission.reply({ formErrors: [error.message], hideFields: ["code"] }), {
      status: 429,
      headers: { "Retry-After": String(error.retryAfterSeconds) },
    });
  }
}

type Reply = SubmissionResult<string[]>;

function BeginForm({ busy, lastResult }: { busy: boolean; lastResult?: Reply }) {
  const [form] = useForm({ id: "two-factor-begin", lastResult, onValidate: ({ formData }) => parseWithZod(formData, { schema: beginEnrolmentSchema }) });
  return (
    <Form method="post" {...getFormProps(form)} className="flex flex-col gap-4">
      <p>Off. With it on, signing in also asks for a code from an authenticator app on your phone.</p>
      <input type="hidden" name="intent" value="begin" />
      <FormErrors errors={form.errors} />
      <button type="submit" className={buttonClass} disabled={busy}>
        Set up two-factor authentication
      </button>
    </Form>
  );
}

function TurnOffForm({ busy, lastResult }: { busy: boolean; lastResult?: Reply }) {
  const [form, fields] = useSchemaForm("two-factor-off", turnOffSchema, lastResult);
  return (
    <Form method="post" {...getFormProps(form)} className="flex flex-col gap-4">
      <input type="hidden" name="intent" value="disable" />
      <FormErrors errors={form.errors} />
      <CodeField field={fields.code} label="Code to turn it off" />
      <button type="submit" className={buttonClass} disabled={busy}>
        Turn off two-factor authentication
      </button>
    </Form>
  );
}

export default function TwoFactorSettings() {
  const data = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const recoveryCodes = result && "recoveryCodes" in result ? result.recoveryCodes : null;
  const reply = result && !("recoveryCodes" in result) ? (result as Reply) : undefined;
  const shown = data.state === "on" ? (data.isAdmin ? "" : "disable") : data.enrolment ? "confirm" : "begin";
  const replyTo = (intent: string) => (replyIntent(reply) === intent ? reply : undefined);
  return (
    <PlayerShell>
      <main className="mx-auto flex max-w-md flex-col gap-4 px-4 py-8">
        <h1 className="text-3xl font-bold">Two-factor authentication</h1>
        <FormErrors errors={unshownErrors(reply, [shown])} />
        {recoveryCodes ? (
          <>
            <p>Two-factor authentication is on: signing in now asks for a code from your app.</p>
            <RecoveryCodeList codes={recoveryCodes} />
          </>
        ) : data.state === "on" ? (
          <>
            <p>On: signing in asks for a code from your authenticator app. Recovery codes left: {data.codesLeft}.</p>
            {data.isAdmin ? null : <TurnOffForm busy={busy} lastResult={replyTo("disable")} />}
          </>
        ) : data.enrolment ? (
          <TotpEnrolment enrolment={data.enrolment} busy={busy} lastResult={replyTo("confirm")} />
        ) : (
          <BeginForm busy={busy} lastResult={replyTo("begin")} />
        )}
        <Link to="/settings" className="underline">
          Back to settings
        </Link>
      </main>
    </PlayerShell>
  );
}

export const headers = passActionHeaders("Retry-After", "Set-Cookie", "Cache-Control");

export const meta: MetaFunction = () => [{ title: "Two-factor authentication — Raffle Rush" }];

export function ErrorBoundary() {
  return <PageError title="Two-factor authentication could not be shown here" back={{ to: "/settings", label: "Back to settings" }} />;
}
