import { getFormProps, type SubmissionResult } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { confirmEnrolmentSchema as schema } from "~/shared/second-factor-forms";
import { buttonClass, FormErrors } from "./form-fields";
import { CodeField, useSchemaForm } from "./schema-form";

/**
 * The QR code (an SVG drawn on the server), the secret for typing by hand, and the first
 * code's form. `lastResult` is the action's answer to this form, if any: a wrong
 * code shows beside the field.
 */
export function TotpEnrolment({
  enrolment,
  busy,
  lastResult,
}: {
  enrolment: { secret: string; qrCode: string };
  busy: boolean;
  lastResult?: SubmissionResult<string[]>;
}) {
  const [form, fields] = useSchemaForm("totp-confirm", schema, lastResult);
  return (
    <Form method="post" reloadDocument {...getFormProps(form)} className="flex flex-col gap-4 text-left">
      <p>Scan this QR code with your authenticator app, then type the 6-digit code it shows.</p>
      <img src={enrolment.qrCode} alt="QR code for your authenticator app" width={200} height={200} className="self-center bg-white p-2" />
      <p className="text-sm">
        Or type this key into the app:{" "}
        <code data-testid="totp-secret" className="break-all font-mono">
          {enrolment.secret}
        </code>
      </p>
      <input type="hidden" name="intent" value="confirm" />
      <FormErrors errors={form.errors} />
      <CodeField field={fields.code} label="Code from the app" />
      <button type="submit" className={buttonClass} disabled={busy}>
        {busy ? "Checking..." : "Turn on two-factor authentication"}
      </button>
    </Form>
  );
}

/** The ten recovery codes, shown once. */
export function RecoveryCodeList({ codes }: { codes: string[] }) {
  return (
    <section aria-labelledby="recovery-title" className="flex flex-col gap-2">
      <h2 id="recovery-title" className="text-xl font-bold">
        Your recovery codes
      </h2>
      <p>Each works once, in place of a code from the app. Keep them somewhere safe: they are not shown again.</p>
      <ul data-testid="recovery-codes" className="grid grid-cols-2 gap-2 font-mono">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
    </section>
  );
}
