import { utcMinute } from "./dates";

/**
 * VIP tiers (spec section 9). Prices in cents; the win multiplier in tenths so
 * prize arithmetic stays in integers (1.1x = 11).
 */
/** A VIP purchase buys this many days; buying again extends or moves up (PRODUCT.md). */
export const VIP_PERIOD_DAYS = 30;

export const VIP_TIERS = {
  bronze: { priceCents: 999, multiplierTenths: 11, dailyCoins: 5, bonusPercent: 10, jackpotChances: 1 },
  silver: { priceCents: 1999, multiplierTenths: 12, dailyCoins: 15, bonusPercent: 20, jackpotChances: 1 },
  gold: { priceCents: 3999, multiplierTenths: 13, dailyCoins: 30, bonusPercent: 30, jackpotChances: 2 },
  platinum: { priceCents: 7999, multiplierTenths: 15, dailyCoins: 60, bonusPercent: 50, jackpotChances: 3 },
  diamond: { priceCents: 14999, multiplierTenths: 20, dailyCoins: 150, bonusPercent: 100, jackpotChances: 5 },
} as const;

export type VipTierName = keyof typeof VIP_TIERS;

/** The tier whose benefits hold now, or null: benefits need vipExpiry in the future. */
export function activeVipTier(user: { vipTier: VipTierName | null; vipExpiry: Date | null }, now: Date): VipTierName | null {
  return user.vipTier && user.vipExpiry && user.vipExpiry.getTime() > now.getTime() ? user.vipTier : null;
}

const TIER_ORDER = Object.keys(VIP_TIERS) as VipTierName[];

/**
 * Whether buying `tier` now would lower the tier the player holds: buying again extends or
 * moves up (PRODUCT.md), so a lower tier waits until the higher one ends. Returns the
 * player's message, or undefined when the purchase is fine.
 */
export function vipDowngradeRefusal(user: { vipTier: VipTierName | null; vipExpiry: Date | null }, tier: VipTierName, now: Date): string | undefined {
  const active = activeVipTier(user, now);
  if (!active || TIER_ORDER.indexOf(active) <= TIER_ORDER.indexOf(tier)) return undefined;
  return `Your ${active.toUpperCase()} membership runs until ${utcMinute(user.vipExpiry!)}. You can extend it or move up to a higher tier; ${tier.toUpperCase()} can be bought once it ends.`;
}

/** The higher of two tiers: a purchase settled never lowers the tier a player holds. */
export function higherVipTier(a: VipTierName, b: VipTierName): VipTierName {
  return TIER_ORDER.indexOf(a) >= TIER_ORDER.indexOf(b) ? a : b;
}

/** No VIP: the plain 50% share. */
export const BASE_MULTIPLIER_TENTHS = 10;

export function winMultiplierTenths(tier: VipTierName | null): number {
  return tier ? VIP_TIERS[tier].multiplierTenths : BASE_MULTIPLIER_TENTHS;
}
