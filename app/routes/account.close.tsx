import { getFormProps, getInputProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { buttonClass, Field, inputClass } from "~/components/form-fields";
import { useSchemaForm } from "~/components/schema-form";
import { closeAccount, closurePreview } from "~/services/accounts/account-closure.server";
import { endSession, requireUser } from "~/web/auth.server";
import { DomainError } from "~/shared/domain-error";
import { readForm } from "~/web/http.server";
import { PASSWORD_MAX } from "~/shared/password-policy";
import { redirectWithToast } from "~/web/toast.server";
import { PageError } from "~/components/route-error";
import { BackHome } from "~/components/legal-page";

/** An account with a password confirms with it; one without (signed up through a provider) types the closing word. */
const withPassword = z.object({ password: z.string({ message: "Enter your password to close your account." }).max(PASSWORD_MAX) });
const withWord = z.object({ typed: z.string({ message: "Type the word above to close your account." }).max(40) });

/** Closing an account, and taking one's data first (docs/decisions/035-closing-an-account.md). */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return closurePreview(user.id);
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const form = await readForm(request);
  const submission = parseWithZod(form, { schema: form.has("typed") ? withWord : withPassword });
  if (submission.status !== "success") return Response.json(submission.reply({ hideFields: ["password"] }), { status: 400 });
  try {
    const closed = await closeAccount(user.id, submission.value);
    const refunded = closed.refundedTickets > 0 ? ` ${closed.refundedTickets} open ticket${closed.refundedTickets === 1 ? " was" : "s were"} refunded.` : "";
    return redirectWithToast(
      "/",
      { type: "success", title: "Your account is closed", description: `You have been signed out everywhere.${refunded}` },
      { headers: { "Set-Cookie": await endSession(request) } },
    );
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    // A wrong password or word shows beside its field; a closure refused (cash, a withdrawal or payment in progress) above the form.
    if (error.code === "invalid_input") {
      const field = "typed" in submission.value ? "typed" : "password";
      return Response.json(submission.reply({ fieldErrors: { [field]: [error.message] }, hideFields: ["password"] }), { status: 400 });
    }
    return Response.json(submission.reply({ formErrors: [error.message], hideFields: ["password"] }), { status: error.code === "closure_refused" ? 409 : 400 });
  }
}

export default function CloseAccount() {
  const data = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const schema = data.needsPassword ? withPassword : withWord;
  const [form, fields] = useSchemaForm("close-account", schema, lastResult);
  return (
    <main className="mx-auto flex max-w-2xl flex-col gap-6 px-4 py-10">
      <BackHome />
      <h1 className="text-3xl font-black">Close your account</h1>
      <section aria-labelledby="export-title" className="rounded-xl border border-line p-4">
        <h2 id="export-title" className="text-xl font-bold">
          Your data
        </h2>
        <p className="mt-1 text-sm">Your profile, settings, history, sessions and consents as one JSON file, made when you ask.</p>
        <a href="/account/export" download className="mt-2 inline-block underline" data-testid="export-link">
          Download my data
        </a>
      </section>
      <section aria-labelledby="pause-title" className="rounded-xl border border-line p-4">
        <h2 id="pause-title" className="text-xl font-bold">
          Want a pause from play instead?
        </h2>
        <p className="mt-1 text-sm">
          Closing is not self-exclusion. A closed account is gone for good, and the same email can sign up again at any time. To keep yourself from playing,
          take a break or exclude yourself on the{" "}
          <Link to="/responsible-play" className="underline">
            Responsible play
          </Link>{" "}
          page instead: it cannot be undone early.
        </p>
      </section>
      <section aria-labelledby="close-title" className="rounded-xl border border-red-300 p-4 dark:border-red-900">
        <h2 id="close-title" className="text-xl font-bold">
          What closing does
        </h2>
        <ul className="mt-2 flex list-disc flex-col gap-1 pl-5 text-sm">
          <li>Tickets in raffles that are still open are refunded.</li>
          <li>
            Cash must be withdrawn first. You have <strong data-testid="close-cash">{data.cash}</strong> in cash.
          </li>
          <li>
            Bonus coins cannot be withdrawn: your <strong data-testid="close-bonus">{data.bonus}</strong> bonus coins (and those refunded from tickets) are
            forfeited. A VIP membership ends without a refund.
          </li>
          <li>You are signed out everywhere and cannot sign in to this account again.</li>
          <li>
            We keep only what the law requires (the coin ledger, card payments, withdrawals and the audit trail); your email, username, name, date of birth,
            linked sign-in providers and payout details are removed.
          </li>
        </ul>
        {data.hasCash ? (
          <p className="mt-3 font-semibold" role="status">
            Withdraw your {data.cash} in cash first:{" "}
            <Link to="/withdraw" className="underline">
              go to Withdraw
            </Link>
            .
          </p>
        ) : null}
        {form.errors?.length ? (
          <p className="mt-3 font-semibold text-red-700 dark:text-red-400" role="alert" data-testid="close-error">
            {form.errors.join(" ")}{" "}
            <Link to="/withdraw" className="underline">
              Go to Withdraw
            </Link>
          </p>
        ) : null}
        <Form method="post" {...getFormProps(form)} className="mt-4 flex flex-col gap-3">
          {data.needsPassword ? (
            <Field label="Your password" id={fields.password.id} errors={fields.password.errors}>
              <input {...getInputProps(fields.password, { type: "password" })} autoComplete="current-password" className={inputClass} />
            </Field>
          ) : (
            <Field label={`Type ${data.closeWord} to confirm`} id={fields.typed.id} errors={fields.typed.errors}>
              <input {...getInputProps(fields.typed, { type: "text" })} autoComplete="off" className={inputClass} />
            </Field>
          )}
          <button type="submit" disabled={busy} className={`${buttonClass} bg-red-700`}>
            {busy ? "Closing…" : "Close my account"}
          </button>
        </Form>
      </section>
    </main>
  );
}

export const meta: MetaFunction = () => [{ title: "Close your account · Raffle Rush" }];

export function ErrorBoundary() {
  return <PageError title="Your account could not be closed here" back={{ to: "/settings", label: "Back to settings" }} />;
}
