import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { requireUser } from "~/web/auth.server";
import { consume, LIMITS } from "~/services/system/rate-limit.server";
import { apiResponse, jsonError, readJson } from "~/web/http.server";
import { fieldsFromAccountInfo } from "~/shared/withdrawal-rules";
import { requestWithdrawal, WithdrawalRefused } from "~/services/money/withdrawals.server";
import { idempotent } from "~/web/idempotency.server";

/**
 * The spec's call: {amount (number, dollars), method, accountInfo (string)}. A CVV inside
 * accountInfo is dropped. Method and accountInfo may be left out when all of the amount
 * goes back to the player's cards (the preview's toMethod is "0.00").
 */
const schema = z.object({
  amount: z.union([z.number().finite(), z.string().max(20)]),
  method: z.string().max(20).default(""),
  accountInfo: z.string().max(300).default(""),
});

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  return idempotent(request, user.id, () =>
    apiResponse(async () => {
      await consume(LIMITS.withdrawalsPerPlayer, user.id);
      const body = await readJson(request, schema);
      // The number as written (10.005 stays 10.005, refused), never rounded with toFixed.
      const amount = typeof body.amount === "number" ? String(body.amount) : body.amount;
      try {
        const withdrawal = await requestWithdrawal(user.id, { amount, method: body.method, fields: fieldsFromAccountInfo(body.method, body.accountInfo) });
        return Response.json({ success: true, ...withdrawal });
      } catch (error) {
        if (error instanceof WithdrawalRefused) return Response.json({ title: error.problem.title, message: error.problem.description }, { status: 422 });
        throw error;
      }
    }),
  );
}

export function loader() {
  return jsonError(405, "Use POST");
}
