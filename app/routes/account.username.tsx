import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, useSearchParams } from "@remix-run/react";
import { buttonClass, inputClass } from "~/components/form-fields";
import { PageError } from "~/components/route-error";
import { createUsername } from "~/services/accounts/sign-up.server";
import { requireUser } from "~/web/auth.server";
import { jsonError, readForm } from "~/web/http.server";
import { pageAction } from "~/web/page-action.server";
import { safeRedirectPath } from "~/shared/safe-redirect";
import { USERNAME_FIRST, USERNAME_HINT, USERNAME_MAX } from "~/shared/username";
import { usernameFormSchema } from "~/shared/username-form";

const returnToOf = (request: Request) => new URL(request.url).searchParams.get("returnTo");

/**
 * The username page: where an entry made without a username leads when the dialog could not
 * stop it (no JavaScript), and back to `returnTo` once one is chosen. With one already, back.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  if (user.username) throw redirect(safeRedirectPath(returnToOf(request)));
  return null;
}

/**
 * The username dialog's form and this page's: the spec's four rules, then
 * uniqueness, and back to the page (or to `returnTo`) with "Username Created!", or to the
 * page with the reason. API clients use /api/auth/create-username.
 */
export async function action({ request }: ActionFunctionArgs) {
  const returnTo = returnToOf(request);
  return pageAction(
    request,
    async () => {
      const user = await requireUser(request);
      const submission = parseWithZod(await readForm(request), { schema: usernameFormSchema });
      if (submission.status !== "success") throw jsonError(400, Object.values(submission.error ?? {}).flat()[0] ?? "Please enter a username to continue.");
      const created = await createUsername(user.id, submission.value.username);
      return { type: "success", title: "Username Created!", description: `Welcome to Raffle Rush, ${created}!` };
    },
    { failureTitle: "Username Error", done: returnTo ? safeRedirectPath(returnTo) : undefined },
  );
}

export default function ChooseUsername() {
  const [params] = useSearchParams();
  const returnTo = safeRedirectPath(params.get("returnTo"));
  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center gap-6 px-4">
      <h1 className="text-2xl font-bold">Choose your username</h1>
      <p>{USERNAME_FIRST} No entry is made without one; once it is chosen you go back to where you were.</p>
      <Form method="post" action={`/account/username?returnTo=${encodeURIComponent(returnTo)}`} className="flex flex-col gap-2">
        <label htmlFor="username" className="text-sm font-semibold">
          Username
        </label>
        <input id="username" name="username" maxLength={USERNAME_MAX} autoComplete="username" aria-describedby="username-hint" className={inputClass} />
        <p id="username-hint" className="text-xs text-ink-muted">
          {USERNAME_HINT}
        </p>
        <button type="submit" className={buttonClass}>
          Create Username
        </button>
      </Form>
    </main>
  );
}

export const meta: MetaFunction = () => [{ title: "Choose your username — Raffle Rush" }];

export function ErrorBoundary() {
  return <PageError title="The username page could not be shown" back={{ to: "/", label: "Back to the raffles" }} />;
}
