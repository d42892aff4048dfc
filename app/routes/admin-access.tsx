import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { buttonClass, Field, FormErrors, inputClass } from "~/components/form-fields";
import { CodeField, useSchemaForm } from "~/components/schema-form";
import { RecoveryCodeList, TotpEnrolment } from "~/components/second-factor";
import {
  confirmAdminEnrolment,
  enrolWithKey,
  gateStep,
  mayPassWithPasskey,
  passAdminGate,
  passAdminGateWithPasskey,
} from "~/services/back-office/admin-gate.server";
import { getSession, requireSession } from "~/web/auth.server";
import { readForm } from "~/web/http.server";
import { PageError } from "~/components/route-error";
import { RateLimited } from "~/services/system/rate-limit.server";
import { pendingEnrolment } from "~/services/accounts/second-factor.server";
import { clearEnrolmentCookie, enrolmentBelongsTo, enrolmentCookieFor } from "~/web/enrolment-cookie.server";
import { passActionHeaders } from "~/web/action-headers";
import { replyIntent, unshownErrors } from "~/shared/form-reply";
import { adminGateSchema as schema, gateCodeSchema, gateKeySchema, gatePasskeySchema } from "~/shared/second-factor-forms";

const DENIED = "Access Denied: invalid credentials or insufficient privileges.";

/** The spec's three states (not signed in, signed in without the admin flag, admin); an admin without a factor enrols first. */
export async function loader({ request }: LoaderFunctionArgs) {
  if (!(await getSession(request))) return { state: "unauthenticated" as const };
  // Anyone still finishing sign-up goes through onboarding first.
  const session = await requireSession(request);
  if (!session.user.isAdmin) return { state: "restricted" as const };
  const step = await gateStep(session);
  const enrolment = step === "key" && (await enrolmentBelongsTo(request, session.id)) ? await pendingEnrolment(session.user.id, session.user.email) : null;
  return { state: "admin" as const, step, enrolment, passkey: step === "code" && (await mayPassWithPasskey(session)) };
}

/**
 * Keys and codes are checked on the server only; a wrong one is a 400 that changes nothing but the audit log and the limit,
 * and empties the field (the spec's gate). A blank or malformed form is a 400 before any check.
 */
export async function action({ request }: ActionFunctionArgs) {
  const session = await requireSession(request);
  const form = await readForm(request);
  // The spec's gate form posts its field alone: without an intent, it is a code.
  if (!form.has("intent")) form.set("intent", "code");
  const submission = parseWithZod(form, { schema });
  if (submission.status !== "success") return Response.json(submission.reply({ hideFields: ["key", "code"] }), { status: 400 });
  const input = submission.value;
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
    return Response.json(submission.reply({ formErrors: [error.message], hideFields: ["key", "code"] }), {
      status: 429,
      headers: { "Retry-After": String(error.retryAfterSeconds) },
    });
  }
  const refused = input.intent === "passkey" ? { formErrors: [DENIED] } : { fieldErrors: { [input.intent === "key" ? "key" : "code"]: [DENIED] } };
  return Response.json(submission.reply({ ...refused, hideFields: ["key", "code"] }), { status: 400 });
}

type Reply = SubmissionResult<string[]>;

function PasskeyGate({ busy, lastResult }: { busy: boolean; lastResult?: Reply }) {
  const [form] = useForm({ id: "gate-passkey", lastResult, onValidate: ({ formData }) => parseWithZod(formData, { schema: gatePasskeySchema }) });
  return (
    <Form method="post" reloadDocument {...getFormProps(form)} className="flex flex-col gap-2">
      <input type="hidden" name="intent" value="passkey" />
      <p>You signed in with a passkey: it counts as your second factor.</p>
      <FormErrors errors={form.errors} />
      <button type="submit" className={buttonClass} disabled={busy}>
        Continue with your passkey
      </button>
    </Form>
  );
}

function CodeGate({ busy, lastResult }: { busy: boolean; lastResult?: Reply }) {
  const [form, fields] = useSchemaForm("gate-code", gateCodeSchema, lastResult);
  return (
    <Form method="post" reloadDocument {...getFormProps(form)} className="flex flex-col gap-4 text-left">
      <input type="hidden" name="intent" value="code" />
      <FormErrors errors={form.errors} />
      <CodeField field={fields.code} label="Authentication code" hint="The 6-digit code from your authenticator app, or one of your recovery codes." />
      <button type="submit" className={buttonClass} disabled={busy}>
        {busy ? "Checking..." : "Access Dashboard"}
      </button>
    </Form>
  );
}

function KeyGate({ busy, lastResult }: { busy: boolean; lastResult?: Reply }) {
  const [form, fields] = useSchemaForm("gate-key", gateKeySchema, lastResult);
  return (
    <Form method="post" reloadDocument {...getFormProps(form)} className="flex flex-col gap-4 text-left">
      <p>Set up two-factor authentication: first the security key your operator gave you, then your authenticator app.</p>
      <input type="hidden" name="intent" value="key" />
      <FormErrors errors={form.errors} />
      <Field label="Security Key" id={fields.key.id} errors={fields.key.errors}>
        <input {...getInputProps(fields.key, { type: "password" })} placeholder="Enter administrative key" autoComplete="off" required className={inputClass} />
      </Field>
      <button type="submit" className={buttonClass} disabled={busy}>
        {busy ? "Checking..." : "Set up two-factor authentication"}
      </button>
    </Form>
  );
}

export default function AdminAccess() {
  const data = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  if (data.state === "unauthenticated") {
    return (
      <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center gap-6 px-4 text-center">
        <h1 className="text-3xl font-bold">Authentication Required</h1>
        <p>Please login first to access this area.</p>
        <Link to="/" className={buttonClass}>
          Go to Homepage
        </Link>
        <Link to="/api/login?returnTo=%2Fadmin-access" className="underline">
          Sign in
        </Link>
      </main>
    );
  }
  if (data.state === "restricted") {
    return (
      <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center gap-6 px-4 text-center">
        <h1 className="text-3xl font-bold">Access Restricted</h1>
        <p>This area is restricted to authorized personnel only.</p>
        <Link to="/" className={buttonClass}>
          Return Home
        </Link>
      </main>
    );
  }
  if (result && "recoveryCodes" in result) {
    return (
      <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center gap-6 px-4">
        <h1 className="text-3xl font-bold">Two-factor authentication is on</h1>
        <RecoveryCodeList codes={result.recoveryCodes} />
        <Link to="/admin" className={buttonClass} reloadDocument>
          Continue to the dashboard
        </Link>
      </main>
    );
  }
  const shown = [data.passkey ? "passkey" : "", data.step === "code" ? "code" : data.enrolment ? "confirm" : "key"];
  const replyTo = (intent: string) => (replyIntent(result) === intent ? (result as Reply) : undefined);
  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center gap-6 px-4 text-center">
      <h1 className="text-3xl font-bold">Administrative Access</h1>
      <FormErrors errors={unshownErrors(result, shown)} />
      {data.passkey ? <PasskeyGate busy={busy} lastResult={replyTo("passkey")} /> : null}
      {data.step === "code" ? (
        <CodeGate busy={busy} lastResult={replyTo("code")} />
      ) : data.enrolment ? (
        <TotpEnrolment enrolment={data.enrolment} busy={busy} lastResult={replyTo("confirm")} />
      ) : (
        <KeyGate busy={busy} lastResult={replyTo("key")} />
      )}
      <Link to="/" className="underline">
        Back to Site
      </Link>
    </main>
  );
}

/** The action's Retry-After, the enrolment cookie's end and no-store (recovery codes) reach the page's answer. */
export const headers = passActionHeaders("Retry-After", "Set-Cookie", "Cache-Control");

export const meta: MetaFunction = () => [{ title: "Admin access — Raffle Rush" }];

export function ErrorBoundary() {
  return <PageError title="The admin sign-in could not be shown" />;
}
