import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { adminAction } from "~/services/admin-http.server";
import { readJson, uuidParam } from "~/infra/http.server";
import { extendExclusionByAdmin } from "~/services/responsible-play.server";
import { utcMinute } from "~/shared/dates";

const schema = z.object({ choice: z.enum(["24h", "7d", "30d", "6m", "1y", "5y"], { message: "Choose a period: 24h, 7d, 30d, 6m, 1y or 5y" }) });

/** Lengthens a player's running break or exclusion (admins can do nothing else to it). */
export async function action({ request, params }: ActionFunctionArgs) {
  return adminAction(request, async (session) => {
    const { choice } = await readJson(request, schema);
    const { until, kind } = await extendExclusionByAdmin(session.user.id, uuidParam(params.id), choice);
    return {
      json: { until: until.toISOString(), kind },
      toast: { type: "success", title: "Exclusion extended", description: `Now until ${utcMinute(until)}.` },
    };
  });
}
