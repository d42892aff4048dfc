import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/web/auth.server";
import { spinStatus } from "~/services/rewards/rewards.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const { canSpin, nextSpinTime } = await spinStatus(user.id);
  return Response.json({ canSpin, nextSpinTime: nextSpinTime.toISOString() });
}
