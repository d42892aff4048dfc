import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/web/auth.server";
import { userRecord } from "~/services/accounts/user-record.server";

/** The signed-in player's record, or 401: the app decides "signed in" from this. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return Response.json(await userRecord(user), { headers: { "Cache-Control": "no-store" } });
}
