import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useFetcher } from "@remix-run/react";
import { replyIntent } from "~/shared/form-reply";
import { resendSchema, verifyCodeSchema } from "~/shared/email-code-forms";
import { buttonClass, Field, FormErrors, inputClass } from "./form-fields";
import { useSchemaForm } from "./schema-form";

type Reply = SubmissionResult<string[]>;

/**
 * On the withdraw page until the player's address is verified: why, the code
 * from the message, and "resend". Both post to /verify-email. With JavaScript through a
 * fetcher: a refusal (a wrong code, a limit) shows here beside the field, a success goes
 * back to /withdraw with its toast. Without, the same forms post as pages, and a refusal
 * renders /verify-email with this panel and the error (`lastResult`).
 */
export function EmailVerificationPanel({ email, lastResult }: { email: string; lastResult?: Reply }) {
  const code = useFetcher<Reply>({ key: "verify-email-code" });
  const resend = useFetcher<Reply>({ key: "verify-email-resend" });
  const [codeForm, fields] = useSchemaForm("verify-email-code", verifyCodeSchema, code.data ?? (replyIntent(lastResult) === "code" ? lastResult : undefined));
  const [resendForm] = useForm({
    id: "verify-email-resend",
    lastResult: resend.data ?? (replyIntent(lastResult) === "resend" ? lastResult : undefined),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: resendSchema }),
  });
  return (
    <section
      aria-labelledby="verify-email-title"
      className="mx-auto mb-6 flex max-w-3xl flex-col gap-3 rounded-xl border border-amber-300 bg-amber-50 p-4 text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
    >
      <h2 id="verify-email-title" className="text-lg font-bold">
        Verify your email before your first withdrawal
      </h2>
      <p className="text-sm">
        We sent a link and a 6-digit code to <strong>{email}</strong>. Open the link, or type the code here.
      </p>
      <code.Form method="post" action="/verify-email" {...getFormProps(codeForm)} className="flex flex-col gap-2">
        <input type="hidden" name="intent" value="code" />
        <FormErrors errors={codeForm.errors} />
        <div className="flex flex-wrap items-end gap-2">
          <Field label="Code" id={fields.code.id} errors={fields.code.errors}>
            <input
              {...getInputProps(fields.code, { type: "text" })}
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              required
              className={inputClass}
            />
          </Field>
          <button type="submit" className={buttonClass} disabled={code.state !== "idle"}>
            Verify
          </button>
        </div>
      </code.Form>
      <resend.Form method="post" action="/verify-email" {...getFormProps(resendForm)}>
        <input type="hidden" name="intent" value="resend" />
        <FormErrors errors={resendForm.errors} />
        <button type="submit" className="text-sm font-semibold underline" disabled={resend.state !== "idle"}>
          Send me a new link and code
        </button>
      </resend.Form>
    </section>
  );
}
