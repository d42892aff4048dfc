import { findCoinPackage } from "~/shared/coin-packages";
import { VIP_PERIOD_DAYS, VIP_TIERS, type VipTierName } from "~/shared/vip";

/**
 * What a purchase costs and buys, decided here from the product, never from what the
 * client sends (docs/decisions/006-payments.md).
 */
/** A VIP purchase buys this many days (app/shared/vip.ts); re-exported for the payment paths' callers. */
export { VIP_PERIOD_DAYS };

export type Product =
  | { purpose: "coins"; product: string; amountCents: number; coins: bigint; description: string }
  | { purpose: "vip"; product: VipTierName; amountCents: number; description: string };

export function priceCoins(packageId: string | null | undefined): Product | undefined {
  const pkg = findCoinPackage(packageId);
  return (
    pkg && {
      purpose: "coins",
      product: pkg.id,
      amountCents: pkg.priceCents,
      coins: BigInt(pkg.coins),
      description: `${pkg.coins.toLocaleString("en-US")} coins`,
    }
  );
}

export function priceVip(tier: string | null | undefined): Product | undefined {
  if (!tier || !Object.hasOwn(VIP_TIERS, tier)) return undefined;
  const name = tier as VipTierName;
  return { purpose: "vip", product: name, amountCents: VIP_TIERS[name].priceCents, description: `VIP ${name.toUpperCase()} — 30 days` };
}

export class PaymentFailed extends Error {
  name = "PaymentFailed";
}
