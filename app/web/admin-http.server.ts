import type { ActionFunctionArgs } from "@remix-run/node";
import type { AdminRun } from "./admin-actions.server";
import { requireAdmin } from "~/web/auth.server";
import { apiResponse, readJson, readSubmission } from "~/web/http.server";
import { idempotent } from "~/web/idempotency.server";
import { pageAction } from "~/web/page-action.server";

/** `/api/admin/...`: the gate first, at most once per Idempotency-Key, then the JSON body read and JSON answered. */
export function adminApiAction(run: AdminRun) {
  return async ({ request, params }: ActionFunctionArgs): Promise<Response> => {
    const session = await requireAdmin(request);
    return idempotent(request, session.user.id, () =>
      apiResponse(async () => Response.json((await run(session, (schema) => readJson(request, schema), params.id)).json)),
    );
  };
}

/**
 * `/admin/...`, the back office's forms: the gate first, the form parsed with conform's
 * `parseWithZod`, then back to the page with the toast.
 */
export function adminPageAction(run: AdminRun) {
  return ({ request, params }: ActionFunctionArgs): Promise<Response> =>
    pageAction(request, async () => (await run(await requireAdmin(request), (schema) => readSubmission(request, schema), params.id)).toast, {
      failureTitle: "Error",
      back: "/admin",
    });
}
