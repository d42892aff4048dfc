import type { ActionFunctionArgs } from "@remix-run/node";
import { PAYOUT_UPDATED, adminAction } from "~/services/admin-http.server";
import { approvePayout } from "~/services/admin.server";
import { uuidParam } from "~/infra/http.server";

export async function action({ request, params }: ActionFunctionArgs) {
  return adminAction(request, async (session) => {
    const decision = await approvePayout(session.user.id, uuidParam(params.id));
    const awaiting = decision.status === "awaiting_second_approval";
    return { json: decision, toast: awaiting ? { type: "info", title: "First approval recorded", description: "A second admin must approve this payout." } : PAYOUT_UPDATED };
  });
}
