import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link } from "@remix-run/react";
import { buttonClass } from "~/components/form-fields";
import { endAllSessions } from "~/services/accounts/sessions.server";
import { endSession, getSession } from "~/web/auth.server";
import { PageError } from "~/components/route-error";

/**
 * GET (the spec's link, "Stop playing") asks to confirm: a page whose form POSTs here, so
 * that another site's link or image cannot sign a player out. POST signs out and revokes
 * the session on the server; it only ever ends the caller's own session.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  if (!(await getSession(request))) throw redirect("/");
  return null;
}

/** POST with everywhere=true signs out every browser of this player ("sign out everywhere"). */
export async function action({ request }: ActionFunctionArgs) {
  const form = await request.formData().catch(() => new FormData());
  if (form.get("everywhere") === "true") {
    const session = await getSession(request);
    if (session) await endAllSessions(session.user.id);
  }
  return redirect("/", { headers: { "Set-Cookie": await endSession(request) } });
}

export default function ConfirmSignOut() {
  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col items-center justify-center gap-4 p-6 text-center">
      <h1 className="text-3xl font-black">Sign out?</h1>
      <p>You will need your email and password, a passkey, or your identity provider to come back.</p>
      <Form method="post" action="/api/logout" reloadDocument>
        <button type="submit" className={buttonClass}>
          Sign out
        </button>
      </Form>
      <Link to="/" className="underline">
        Stay signed in
      </Link>
    </main>
  );
}

export const meta: MetaFunction = () => [{ title: "Sign out — Raffle Rush" }];

export function ErrorBoundary() {
  return <PageError title="Signing out could not be completed" back={{ to: "/api/logout", label: "Try signing out again" }} />;
}
