import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/web/auth.server";
import { previewAmount } from "~/services/money/withdrawals.server";
import { apiResponse, jsonError, queryParams } from "~/web/http.server";
import { parseDollars } from "~/shared/money";

/**
 * GET ?amount=12.34: what a withdrawal of that much would do before it is asked for
 * (PRODUCT.md): {backToCards, toMethod, bonusTakenBack} (the bonus coins the refunds to
 * the cards take back with the purchases). The withdraw page shows the same.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return apiResponse(async () => {
    const amount = parseDollars(queryParams(request).get("amount") ?? "");
    if (amount === undefined || amount <= 0n) return jsonError(400, "amount: give the amount in dollars, such as 12.34");
    return Response.json(await previewAmount(user.id, amount));
  });
}
