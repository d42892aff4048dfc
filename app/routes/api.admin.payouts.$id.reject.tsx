import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { PAYOUT_UPDATED, adminAction } from "~/services/admin-http.server";
import { rejectPayout } from "~/services/admin.server";
import { readJson, uuidParam } from "~/infra/http.server";

const schema = z.object({ reason: z.string().trim().min(1).max(200).default("Admin review") });

export async function action({ request, params }: ActionFunctionArgs) {
  return adminAction(request, async (session) => {
    const { reason } = await readJson(request, schema);
    return { json: await rejectPayout(session.user.id, uuidParam(params.id), reason), toast: PAYOUT_UPDATED };
  });
}
