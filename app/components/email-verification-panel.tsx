import { Form } from "@remix-run/react";
import { buttonClass, inputClass } from "./form-fields";

/**
 * On the withdraw page until the player's address is verified (ADR 032): why, the code
 * from the message, and "resend". Plain forms: they work without JavaScript.
 */
export function EmailVerificationPanel({ email }: { email: string }) {
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
      <Form method="post" action="/verify-email" className="flex flex-wrap items-end gap-2">
        <input type="hidden" name="intent" value="code" />
        <label className="flex flex-col gap-1 text-sm font-semibold" htmlFor="verify-code">
          Code
          <input id="verify-code" name="code" inputMode="numeric" autoComplete="one-time-code" pattern="\d{6}" maxLength={6} required className={inputClass} />
        </label>
        <button type="submit" className={buttonClass}>
          Verify
        </button>
      </Form>
      <Form method="post" action="/verify-email">
        <input type="hidden" name="intent" value="resend" />
        <button type="submit" className="text-sm font-semibold underline">
          Send me a new link and code
        </button>
      </Form>
    </section>
  );
}
