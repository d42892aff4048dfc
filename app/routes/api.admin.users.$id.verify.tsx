import type { ActionFunctionArgs } from "@remix-run/node";
import { adminAction } from "~/services/admin-http.server";
import { verifyIdentity } from "~/services/admin.server";
import { uuidParam } from "~/infra/http.server";

export async function action({ request, params }: ActionFunctionArgs) {
  return adminAction(request, async (session) => {
    await verifyIdentity(session.user.id, uuidParam(params.id));
    return { json: { verified: true }, toast: { type: "success", title: "Identity verified" } };
  });
}
