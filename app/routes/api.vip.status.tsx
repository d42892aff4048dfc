import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/web/auth.server";
import { vipClaimStatus } from "~/services/rewards/rewards.server";
import { activeVipTier } from "~/shared/vip";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const tier = activeVipTier(user, new Date());
  return Response.json({
    tier: tier ?? "bronze",
    active: tier !== null,
    expiry: user.vipExpiry?.toISOString() ?? null,
    ...(await vipClaimStatus(user.id)),
  });
}
