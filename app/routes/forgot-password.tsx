import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { AccountCard } from "~/components/account-card";
import { buttonClass, Field, FormErrors, inputClass } from "~/components/form-fields";
import { requestPasswordReset } from "~/services/accounts/email-tokens.server";
import { RESET_TOKEN_MINUTES } from "~/shared/recovery";
import { readForm } from "~/web/http.server";
import { RateLimited } from "~/services/system/rate-limit.server";
import { passActionHeaders } from "~/web/action-headers";
import { PageError } from "~/components/route-error";

const schema = z.object({
  email: z.string({ message: "Email is required" }).trim().email("Enter a valid email address").max(254),
});

export function loader() {
  return null;
}

/**
 * The same answer whether or not an account uses the address: the page never
 * says which, and the service does the same work either way.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const submission = parseWithZod(await readForm(request), { schema });
  if (submission.status !== "success") return Response.json({ reply: submission.reply() }, { status: 400 });
  try {
    await requestPasswordReset(submission.value.email, { ip: context.clientIp });
  } catch (error) {
    if (!(error instanceof RateLimited)) throw error;
    return Response.json(
      { reply: submission.reply({ formErrors: [error.message] }) },
      { status: 429, headers: { "Retry-After": String(error.retryAfterSeconds) } },
    );
  }
  return Response.json({ sent: submission.value.email.toLowerCase() });
}

export default function ForgotPassword() {
  const result = useActionData<typeof action>() as { reply?: SubmissionResult<string[]>; sent?: string } | undefined;
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "forgot-password",
    lastResult: result?.reply,
    constraint: getZodConstraint(schema),
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
  if (result?.sent) {
    return (
      <AccountCard title="Check your email">
        <p role="status">
          If an account uses <strong>{result.sent}</strong>, we have sent it a link to choose a new password. The link works once, for {RESET_TOKEN_MINUTES}{" "}
          minutes. Nothing arrived? Check your spam folder, or ask again in a few minutes.
        </p>
        <Link to="/api/login" className="underline">
          Back to sign in
        </Link>
      </AccountCard>
    );
  }
  return (
    <AccountCard title="Forgot your password?">
      <p className="text-sm text-ink-muted">Type the email you signed up with. We will send you a link to choose a new password.</p>
      <Form method="post" {...getFormProps(form)} className="flex flex-col gap-4">
        <FormErrors errors={form.errors} />
        <Field label="Email" id={fields.email.id} errors={fields.email.errors}>
          <input {...getInputProps(fields.email, { type: "email" })} autoComplete="email" className={inputClass} />
        </Field>
        <button type="submit" className={buttonClass} disabled={navigation.state !== "idle"}>
          {navigation.state !== "idle" ? "Sending..." : "Send me a link"}
        </button>
      </Form>
      <Link to="/api/login" className="text-sm underline">
        Back to sign in
      </Link>
    </AccountCard>
  );
}

export const meta: MetaFunction = () => [{ title: "Forgot password — Raffle Rush" }];

export const headers = passActionHeaders("Retry-After");

export function ErrorBoundary() {
  return <PageError title="The password reset could not be started" back={{ to: "/api/login", label: "Back to sign in" }} />;
}
