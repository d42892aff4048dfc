import type { LoaderFunctionArgs } from "@remix-run/node";
import { getOptionalUser } from "~/web/auth.server";
import { getFairDraw } from "~/services/fairness/fair.server";
import { jsonError, uuidParam } from "~/web/http.server";

/** Public: anyone may check any draw. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const id = uuidParam(params.id, "raffle id");
  const draw = await getFairDraw(id, (await getOptionalUser(request))?.id);
  if (!draw) return jsonError(404, "Raffle not found");
  return Response.json(draw);
}
