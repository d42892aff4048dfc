import type { LoaderFunctionArgs } from "@remix-run/node";
import { getReceipt } from "~/services/fairness/receipts.server";
import { requireUser } from "~/web/auth.server";
import { jsonError } from "~/web/http.server";
import { UUID } from "~/shared/uuid";

/**
 * A receipt's signed JSON, as a download (ADR 079): the player's own ticket only; another
 * player's, or an id that is no ticket, is 404.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const id = (params.id ?? "").toLowerCase();
  const receipt = UUID.test(id) ? await getReceipt(user.id, id) : undefined;
  if (!receipt) return jsonError(404, "Receipt not found");
  return new Response(`${JSON.stringify(receipt, null, 2)}\n`, {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="receipt-${receipt.receiptId}.json"`,
      "Cache-Control": "private, no-store",
    },
  });
}
