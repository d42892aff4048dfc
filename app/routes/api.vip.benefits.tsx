import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/web/auth.server";
import { coinsToDecimal } from "~/shared/money";
import { VIP_TIERS } from "~/shared/vip";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  return Response.json(
    Object.entries(VIP_TIERS).map(([tier, t]) => ({
      tier,
      monthlyPrice: coinsToDecimal(BigInt(t.priceCents)),
      winMultiplier: t.multiplierTenths / 10,
      dailyCoins: t.dailyCoins,
      bonusPercent: t.bonusPercent,
      jackpotChances: t.jackpotChances,
    })),
  );
}
