import type { LoaderFunctionArgs } from "@remix-run/node";
import { exportAccountData } from "~/services/accounts/account-export.server";
import { requireUser } from "~/web/auth.server";

/** "Download my data": the player's data as a JSON attachment, generated on request. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const now = new Date();
  const body = await exportAccountData(user.id, now);
  return new Response(body, {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="raffle-rush-data-${now.toISOString().slice(0, 10)}.json"`,
      "Cache-Control": "no-store",
    },
  });
}
