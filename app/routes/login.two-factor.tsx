import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useActionData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { buttonClass, inputClass } from "~/components/form-fields";
import { PageError } from "~/components/route-error";
import { startSession } from "~/services/auth.server";
import { readForm } from "~/infra/http.server";
import { knownDevice, rememberDevice } from "~/services/known-device.server";
import { RateLimited } from "~/services/rate-limit.server";
import { clearPendingSignIn, finishSignIn, pendingSignIn } from "~/services/two-step-sign-in.server";
import { passActionHeaders } from "~/shared/action-headers";

const schema = z.object({ code: z.string().max(100).default("") });

/** Sign-in's second step (ADR 036): only after the right password, for 5 minutes. */
export async function loader({ request }: LoaderFunctionArgs) {
  if (!(await pendingSignIn(request))) throw redirect("/api/login");
  return null;
}

export async function action({ request, context }: ActionFunctionArgs) {
  const pending = await pendingSignIn(request);
  if (!pending) throw redirect("/api/login");
  const parsed = schema.safeParse(Object.fromEntries(await readForm(request)));
  try {
    if (parsed.success && (await finishSignIn(pending.userId, parsed.data.code))) {
      const headers = new Headers();
      headers.append("Set-Cookie", await startSession(request, pending.userId, { ip: context.clientIp }));
      headers.append("Set-Cookie", await rememberDevice(pending.userId, await knownDevice(request)));
      headers.append("Set-Cookie", await clearPendingSignIn());
      return redirect(pending.returnTo, { headers });
    }
  } catch (error) {
    if (!(error instanceof RateLimited)) throw error;
    return Response.json({ error: error.message }, { status: 429, headers: { "Retry-After": String(error.retryAfterSeconds) } });
  }
  return Response.json({ error: "That code is not right. Try the app's current code, or a recovery code." }, { status: 400 });
}

export default function TwoFactorSignIn() {
  const result = useActionData<{ error?: string }>();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center gap-6 px-4">
      <h1 className="text-3xl font-bold">Two-factor authentication</h1>
      {result?.error ? <p role="alert" className="rounded bg-red-100 p-3 text-red-900">{result.error}</p> : null}
      <Form method="post" className="flex flex-col gap-4">
        <label htmlFor="code" className="text-sm font-semibold">Authentication code</label>
        <p id="code-hint" className="text-sm">The 6-digit code from your authenticator app, or one of your recovery codes.</p>
        <input id="code" name="code" aria-describedby="code-hint" inputMode="numeric" autoComplete="one-time-code" required className={inputClass} />
        <button type="submit" className={buttonClass} disabled={busy}>{busy ? "Checking..." : "Sign in"}</button>
      </Form>
      <Link to="/api/login" className="underline">Start again</Link>
    </main>
  );
}

export const headers = passActionHeaders("Retry-After");

export const meta: MetaFunction = () => [{ title: "Two-factor authentication — Raffle Rush" }];

export function ErrorBoundary() {
  return <PageError title="The sign-in code could not be checked here" back={{ to: "/api/login", label: "Back to sign-in" }} />;
}
