import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs } from "@remix-run/node";
import { createUsername } from "~/services/accounts/sign-up.server";
import { requireUser } from "~/web/auth.server";
import { jsonError, readForm } from "~/web/http.server";
import { pageAction } from "~/web/page-action.server";
import { usernameFormSchema } from "~/shared/username";

/**
 * The username dialog's form (ADR 040): the spec's four rules, then uniqueness, and back to
 * the page with "Username Created!" or the reason. API clients use /api/auth/create-username.
 */
export async function action({ request }: ActionFunctionArgs) {
  return pageAction(
    request,
    async () => {
      const user = await requireUser(request);
      const submission = parseWithZod(await readForm(request), { schema: usernameFormSchema });
      if (submission.status !== "success") throw jsonError(400, Object.values(submission.error ?? {}).flat()[0] ?? "Please enter a username to continue.");
      const created = await createUsername(user.id, submission.value.username);
      return { type: "success", title: "Username Created!", description: `Welcome to Raffle Rush, ${created}!` };
    },
    { failureTitle: "Username Error" },
  );
}

export function loader() {
  throw new Response("Not Found", { status: 404 });
}
