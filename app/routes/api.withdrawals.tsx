import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/web/auth.server";
import { listWithdrawals } from "~/services/money/withdrawals.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return Response.json(await listWithdrawals(user.id));
}
