import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { AccountCard } from "~/components/account-card";
import { buttonClass, Field, FormErrors, inputClass } from "~/components/form-fields";
import { CodeField, useSchemaForm } from "~/components/schema-form";
import { PageError } from "~/components/route-error";
import { AccountError } from "~/services/accounts/sign-up.server";
import { requireUser } from "~/web/auth.server";
import { confirmEmailChangeByCode, confirmEmailChangeByToken, pendingEmailChange, requestEmailChange } from "~/services/accounts/email-change.server";
import { expectedFailure, readForm } from "~/web/http.server";
import { mailedCode } from "~/shared/email-code-forms";
import { replyIntent, unshownErrors } from "~/shared/form-reply";
import { PASSWORD_MAX } from "~/shared/password-policy";
import { RateLimited } from "~/services/system/rate-limit.server";
import { redirectWithToast } from "~/web/toast.server";

const requestSchema = z.object({
  intent: z.literal("request"),
  newEmail: z.string({ message: "Enter the new email address" }).trim().email("Enter a valid email address").max(254),
  password: z.string({ message: "Enter your password" }).max(PASSWORD_MAX),
});
const codeSchema = z.object({ intent: z.literal("code"), code: mailedCode });
const linkSchema = z.object({ intent: z.literal("link"), token: z.string({ message: "This link is not complete." }).max(200) });
const schema = z.discriminatedUnion("intent", [requestSchema, codeSchema, linkSchema], { message: "Check the form and try again." });

/**
 * Changing the email (docs/decisions/037-passkeys-and-email-change.md): the player asks with
 * their password; the new address gets a link (this page with ?token=, whose button POSTs,
 * so a mail scanner changes nothing) and a code typed here. Plain forms: no JavaScript needed.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token");
  if (token) return { mode: "link" as const, token: token.slice(0, 200) };
  const user = await requireUser(request);
  return { mode: "change" as const, email: user.email, pending: (await pendingEmailChange(user.id)) ?? null };
}

/** A refusal is a conform reply: beside its field (400), or above the form (a link refused, 429 limited). */
export async function action({ request }: ActionFunctionArgs) {
  const submission = parseWithZod(await readForm(request), { schema });
  if (submission.status !== "success") return Response.json(submission.reply({ hideFields: ["password"] }), { status: 400 });
  const input = submission.value;
  try {
    if (input.intent === "link") {
      await confirmEmailChangeByToken(input.token);
      return redirectWithToast("/settings", {
        type: "success",
        title: "Email changed",
        description: "Your account uses its new, verified address from now on.",
      });
    }
    const user = await requireUser(request);
    if (input.intent === "code") {
      await confirmEmailChangeByCode(user.id, input.code);
      return redirectWithToast("/settings", {
        type: "success",
        title: "Email changed",
        description: "Your account uses its new, verified address from now on.",
      });
    }
    const address = await requestEmailChange(user.id, input);
    return redirectWithToast("/account/email", { type: "success", title: "Check your new inbox", description: `We sent a link and a code to ${address}.` });
  } catch (error) {
    const message = expectedFailure(error)?.message;
    if (!message) throw error;
    if (error instanceof RateLimited) {
      return Response.json(submission.reply({ formErrors: [message], hideFields: ["password"] }), {
        status: 429,
        headers: { "Retry-After": String(error.retryAfterSeconds) },
      });
    }
    const field = error instanceof AccountError ? error.field : input.intent === "code" ? "code" : null;
    const reply = field ? submission.reply({ fieldErrors: { [field]: [message] }, hideFields: ["password"] }) : submission.reply({ formErrors: [message] });
    return Response.json(reply, { status: 400 });
  }
}

type Reply = SubmissionResult<string[]>;

function ConfirmLink({ token, lastResult }: { token: string; lastResult?: Reply }) {
  const [form] = useForm({ id: "email-link", lastResult, onValidate: ({ formData }) => parseWithZod(formData, { schema: linkSchema }) });
  return (
    <AccountCard title="Confirm your new email">
      <p>Use this address for your Raffle Rush account.</p>
      <Form method="post" {...getFormProps(form)} className="flex flex-col gap-4">
        <FormErrors errors={Object.values(form.allErrors).flat()} />
        <input type="hidden" name="intent" value="link" />
        <input type="hidden" name="token" value={token} />
        <button type="submit" className={buttonClass}>
          Use this address
        </button>
      </Form>
    </AccountCard>
  );
}

function CodeForm({ pending, busy, lastResult }: { pending: string; busy: boolean; lastResult?: Reply }) {
  const [form, fields] = useSchemaForm("email-code", codeSchema, lastResult);
  return (
    <Form method="post" {...getFormProps(form)} className="flex flex-col gap-3" aria-labelledby="code-title">
      <h2 id="code-title" className="font-semibold">
        Waiting for <span data-testid="pending-email">{pending}</span>
      </h2>
      <input type="hidden" name="intent" value="code" />
      <FormErrors errors={form.errors} />
      <CodeField field={fields.code} label="6-digit code from the message" />
      <button type="submit" disabled={busy} className={buttonClass}>
        Confirm new email
      </button>
    </Form>
  );
}

function RequestForm({ pending, busy, lastResult }: { pending: boolean; busy: boolean; lastResult?: Reply }) {
  const [form, fields] = useSchemaForm("email-request", requestSchema, lastResult);
  return (
    <Form method="post" {...getFormProps(form)} className="flex flex-col gap-3" aria-labelledby="request-title">
      <h2 id="request-title" className="font-semibold">
        {pending ? "Use another address" : "New address"}
      </h2>
      <input type="hidden" name="intent" value="request" />
      <FormErrors errors={form.errors} />
      <Field label="New email" id={fields.newEmail.id} errors={fields.newEmail.errors}>
        <input {...getInputProps(fields.newEmail, { type: "email" })} autoComplete="email" className={inputClass} />
      </Field>
      <Field label="Your password" id={fields.password.id} errors={fields.password.errors}>
        <input {...getInputProps(fields.password, { type: "password" })} autoComplete="current-password" className={inputClass} />
      </Field>
      <button type="submit" disabled={busy} className={buttonClass}>
        Send confirmation
      </button>
    </Form>
  );
}

export default function ChangeEmail() {
  const data = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const replyTo = (intent: string) => (replyIntent(lastResult) === intent ? lastResult : undefined);
  if (data.mode === "link") return <ConfirmLink token={data.token} lastResult={lastResult} />;
  return (
    <AccountCard title="Change email">
      <p className="text-sm">
        Your address: <strong data-testid="current-email">{data.email}</strong>. It changes only once you confirm the new one with the link or code we send
        there; we tell your current address when it has changed.
      </p>
      <FormErrors errors={unshownErrors(lastResult, data.pending ? ["code", "request"] : ["request"])} />
      {data.pending ? <CodeForm pending={data.pending} busy={busy} lastResult={replyTo("code")} /> : null}
      <RequestForm pending={data.pending !== null} busy={busy} lastResult={replyTo("request")} />
      <Link to="/settings" className="inline-flex min-h-11 items-center underline">
        Back to settings
      </Link>
    </AccountCard>
  );
}

export const meta: MetaFunction = () => [{ title: "Change email — Raffle Rush" }];

export function ErrorBoundary() {
  return <PageError title="Your email address could not be changed here" back={{ to: "/settings", label: "Back to settings" }} />;
}
