import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useActionData, useNavigation } from "@remix-run/react";
import { buttonClass, FormErrors } from "~/components/form-fields";
import { CodeField, useSchemaForm } from "~/components/schema-form";
import { PageError } from "~/components/route-error";
import { startSession } from "~/web/auth.server";
import { readForm } from "~/web/http.server";
import { knownDevice, rememberDevice } from "~/web/known-device.server";
import { RateLimited } from "~/services/system/rate-limit.server";
import { finishSignIn } from "~/services/accounts/two-step-sign-in.server";
import { clearPendingSignIn, pendingSignIn } from "~/web/pending-sign-in.server";
import { passActionHeaders } from "~/web/action-headers";
import { signInCodeSchema as schema } from "~/shared/second-factor-forms";

/** Sign-in's second step: only after the right password, for 5 minutes. */
export async function loader({ request }: LoaderFunctionArgs) {
  if (!(await pendingSignIn(request))) throw redirect("/api/login");
  return null;
}

/** A wrong code is a 400 beside the field; every code typed is counted and audited by `finishSignIn`. */
export async function action({ request, context }: ActionFunctionArgs) {
  const pending = await pendingSignIn(request);
  if (!pending) throw redirect("/api/login");
  const submission = parseWithZod(await readForm(request), { schema });
  if (submission.status !== "success") return Response.json(submission.reply({ hideFields: ["code"] }), { status: 400 });
  try {
    if (await finishSignIn(pending.userId, submission.value.code)) {
      const headers = new Headers();
      headers.append("Set-Cookie", await startSession(request, pending.userId, { ip: context.clientIp }));
      headers.append("Set-Cookie", await rememberDevice(pending.userId, await knownDevice(request)));
      headers.append("Set-Cookie", await clearPendingSignIn());
      return redirect(pending.returnTo, { headers });
    }
  } catch (error) {
    if (!(error instanceof RateLimited)) throw error;
    return Response.json(submission.reply({ formErrors: [error.message], hideFields: ["code"] }), {
      status: 429,
      headers: { "Retry-After": String(error.retryAfterSeconds) },
    });
  }
  return Response.json(
    submission.reply({ fieldErrors: { code: ["That code is not right. Try the app's current code, or a recovery code."] }, hideFields: ["code"] }),
    { status: 400 },
  );
}

export default function TwoFactorSignIn() {
  const lastResult = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const [form, fields] = useSchemaForm("sign-in-code", schema, lastResult);
  const hint = "The 6-digit code from your authenticator app, or one of your recovery codes.";
  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center gap-6 px-4">
      <h1 className="text-3xl font-bold">Two-factor authentication</h1>
      <Form method="post" {...getFormProps(form)} className="flex flex-col gap-4">
        <FormErrors errors={form.errors} />
        <CodeField field={fields.code} label="Authentication code" hint={hint} />
        <button type="submit" className={buttonClass} disabled={busy}>
          {busy ? "Checking..." : "Sign in"}
        </button>
      </Form>
      <Link to="/api/login" className="underline">
        Start again
      </Link>
    </main>
  );
}

export const headers = passActionHeaders("Retry-After");

export const meta: MetaFunction = () => [{ title: "Two-factor authentication — Raffle Rush" }];

export function ErrorBoundary() {
  return <PageError title="The sign-in code could not be checked here" back={{ to: "/api/login", label: "Back to sign-in" }} />;
}
