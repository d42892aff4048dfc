import { requireAdmin, type CurrentSession } from "~/services/auth.server";
import { idempotent } from "~/infra/idempotency.server";
import { respond } from "~/infra/respond.server";
import type { NewToast } from "~/infra/toast.server";

/** An admin action: the gate first, at most once per Idempotency-Key, then JSON for fetchers and the API, a toast for plain forms. */
export async function adminAction(
  request: Request,
  run: (session: CurrentSession) => Promise<{ json: unknown; toast: NewToast }>,
): Promise<Response> {
  const session = await requireAdmin(request);
  return idempotent(request, session.user.id, () => respond(request, () => run(session), { failureTitle: "Error", back: "/admin" }));
}

export const PAYOUT_UPDATED = { type: "success", title: "Payout updated successfully" } as const;
