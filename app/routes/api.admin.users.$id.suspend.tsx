import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { adminAction } from "~/services/admin-http.server";
import { suspendUser } from "~/services/admin.server";
import { readJson, uuidParam } from "~/infra/http.server";

const schema = z.object({ suspended: z.enum(["true", "false"]).or(z.boolean()).transform((v) => v === true || v === "true") });

export async function action({ request, params }: ActionFunctionArgs) {
  return adminAction(request, async (session) => {
    const { suspended } = await readJson(request, schema);
    await suspendUser(session.user.id, uuidParam(params.id), suspended);
    return { json: { suspended }, toast: { type: "success", title: suspended ? "Player suspended" : "Suspension lifted" } };
  });
}
