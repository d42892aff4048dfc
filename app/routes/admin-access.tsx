import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { buttonClass, inputClass } from "~/components/form-fields";
import { passAdminGate } from "~/services/accounts.server";
import { getSession, requireSession } from "~/services/auth.server";
import { RateLimited } from "~/services/rate-limit.server";
import { redirectWithToast } from "~/services/toast.server";
import { readForm } from "~/services/http.server";
import { PageError } from "~/components/route-error";

const schema = z.object({ key: z.string().max(500).default("") });

const DENIED = { type: "error", title: "Access Denied", description: "Invalid credentials or insufficient privileges" } as const;

/** The spec's three states: not signed in, signed in without the admin flag, admin. */
export async function loader({ request }: LoaderFunctionArgs) {
  if (!(await getSession(request))) return { state: "unauthenticated" as const };
  // Anyone still finishing sign-up goes through onboarding first.
  const session = await requireSession(request);
  return { state: session.user.isAdmin ? ("admin" as const) : ("restricted" as const) };
}

/** The key is checked on the server only; it never reaches the browser. */
export async function action({ request }: ActionFunctionArgs) {
  const session = await requireSession(request);
  const parsed = schema.safeParse(Object.fromEntries(await readForm(request)));
  const key = parsed.success ? parsed.data.key : "";
  try {
    if (await passAdminGate(session, key)) return redirect("/admin");
  } catch (error) {
    if (!(error instanceof RateLimited)) throw error;
    return redirectWithToast("/admin-access", { ...DENIED, description: error.message }, {
      headers: { "Retry-After": String(error.retryAfterSeconds) },
    });
  }
  return redirectWithToast("/admin-access", DENIED);
}

export default function AdminAccess() {
  const { state } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  if (state === "unauthenticated") {
    return (
      <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center gap-6 px-4 text-center">
        <h1 className="text-3xl font-bold">Authentication Required</h1>
        <p>Please login first to access this area.</p>
        <Link to="/" className={buttonClass}>Go to Homepage</Link>
        <Link to="/api/login?returnTo=%2Fadmin-access" className="underline">Sign in</Link>
      </main>
    );
  }
  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center gap-6 px-4 text-center">
      {state === "admin" ? (
        <>
          <h1 className="text-3xl font-bold">Administrative Access</h1>
          <Form method="post" reloadDocument className="flex flex-col gap-4 text-left">
            <label htmlFor="key" className="text-sm font-semibold">Security Key</label>
            <input id="key" name="key" type="password" placeholder="Enter administrative key" autoComplete="off" required className={inputClass} />
            <button type="submit" className={buttonClass} disabled={navigation.state === "submitting"}>
              {navigation.state === "submitting" ? "Checking..." : "Access Dashboard"}
            </button>
          </Form>
          <Link to="/" className="underline">Back to Site</Link>
        </>
      ) : (
        <>
          <h1 className="text-3xl font-bold">Access Restricted</h1>
          <p>This area is restricted to authorized personnel only.</p>
          <Link to="/" className={buttonClass}>Return Home</Link>
        </>
      )}
    </main>
  );
}

export const meta: MetaFunction = () => [{ title: "Admin access — Raffle Rush" }];

export function ErrorBoundary() {
  return <PageError title="The admin sign-in could not be shown" />;
}
