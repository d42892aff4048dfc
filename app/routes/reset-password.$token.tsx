import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { AccountCard } from "~/components/account-card";
import { buttonClass, Field, FormErrors, inputClass } from "~/components/form-fields";
import { DomainError } from "~/shared/domain-error";
import { resetPassword, resetTokenIsLive, TokenRefused } from "~/services/accounts/email-tokens.server";
import { EXPIRED_LINK } from "~/shared/recovery";
import { readForm } from "~/web/http.server";
import { PASSWORD_MAX, PASSWORD_MIN } from "~/shared/password-policy";
import { redirectWithToast } from "~/web/toast.server";
import { PageError } from "~/components/route-error";

const schema = z
  .object({
    password: z.string({ message: "Password is required" }).min(PASSWORD_MIN, `Password must be at least ${PASSWORD_MIN} characters.`).max(PASSWORD_MAX),
    confirm: z.string({ message: "Type the new password again" }).max(PASSWORD_MAX),
  })
  .refine((value) => value.password === value.confirm, { path: ["confirm"], message: "The two passwords are not the same." });

export async function loader({ params }: LoaderFunctionArgs) {
  return { live: await resetTokenIsLive(params.token ?? "") };
}

/** Uses the link once: the new password, every session ended, "password changed" by mail. */
export async function action({ request, params }: ActionFunctionArgs) {
  const submission = parseWithZod(await readForm(request), { schema });
  if (submission.status !== "success") return Response.json(submission.reply({ hideFields: ["password", "confirm"] }), { status: 400 });
  try {
    await resetPassword(params.token ?? "", submission.value.password);
  } catch (error) {
    if (error instanceof TokenRefused)
      return Response.json(submission.reply({ formErrors: [error.message], hideFields: ["password", "confirm"] }), { status: 400 });
    if (error instanceof DomainError) {
      return Response.json(submission.reply({ fieldErrors: { password: [error.message] }, hideFields: ["password", "confirm"] }), { status: 400 });
    }
    throw error;
  }
  return redirectWithToast("/api/login", {
    type: "success",
    title: "Password changed",
    description: "Sign in with your new password. Every other browser was signed out.",
  });
}

export default function ResetPassword() {
  const { live } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "reset-password",
    lastResult,
    constraint: getZodConstraint(schema),
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
  if (!live) {
    return (
      <AccountCard title="Link expired">
        <p role="alert">{EXPIRED_LINK}</p>
        <Link to="/forgot-password" className="underline">
          Ask for a new link
        </Link>
      </AccountCard>
    );
  }
  return (
    <AccountCard title="Choose a new password">
      <Form method="post" {...getFormProps(form)} className="flex flex-col gap-4">
        <FormErrors errors={form.errors} />
        <Field label="New password" id={fields.password.id} errors={fields.password.errors} hint={`At least ${PASSWORD_MIN} characters.`}>
          <input {...getInputProps(fields.password, { type: "password" })} autoComplete="new-password" className={inputClass} />
        </Field>
        <Field label="New password, again" id={fields.confirm.id} errors={fields.confirm.errors}>
          <input {...getInputProps(fields.confirm, { type: "password" })} autoComplete="new-password" className={inputClass} />
        </Field>
        <button type="submit" className={buttonClass} disabled={navigation.state !== "idle"}>
          {navigation.state !== "idle" ? "Saving..." : "Set new password"}
        </button>
      </Form>
    </AccountCard>
  );
}

export const meta: MetaFunction = () => [{ title: "Choose a new password — Raffle Rush" }];

export function ErrorBoundary() {
  return <PageError title="Your password could not be changed here" back={{ to: "/forgot-password", label: "Ask for a new link" }} />;
}
