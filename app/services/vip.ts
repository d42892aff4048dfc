/**
 * VIP tiers (spec section 9). Prices in cents; the win multiplier in tenths so
 * prize arithmetic stays in integers (1.1x = 11).
 */
export const VIP_TIERS = {
  bronze: { priceCents: 999, multiplierTenths: 11, dailyCoins: 5, bonusPercent: 10, jackpotChances: 1 },
  silver: { priceCents: 1999, multiplierTenths: 12, dailyCoins: 15, bonusPercent: 20, jackpotChances: 1 },
  gold: { priceCents: 3999, multiplierTenths: 13, dailyCoins: 30, bonusPercent: 30, jackpotChances: 2 },
  platinum: { priceCents: 7999, multiplierTenths: 15, dailyCoins: 60, bonusPercent: 50, jackpotChances: 3 },
  diamond: { priceCents: 14999, multiplierTenths: 20, dailyCoins: 150, bonusPercent: 100, jackpotChances: 5 },
} as const;

export type VipTierName = keyof typeof VIP_TIERS;

/** The tier whose benefits hold now, or null: benefits need vipExpiry in the future. */
export function activeVipTier(
  user: { vipTier: VipTierName | null; vipExpiry: Date | null },
  now: Date,
): VipTierName | null {
  return user.vipTier && user.vipExpiry && user.vipExpiry.getTime() > now.getTime() ? user.vipTier : null;
}

/** No VIP: the plain 50% share. */
export const BASE_MULTIPLIER_TENTHS = 10;

export function winMultiplierTenths(tier: VipTierName | null): number {
  return tier ? VIP_TIERS[tier].multiplierTenths : BASE_MULTIPLIER_TENTHS;
}
