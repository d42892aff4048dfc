import { COIN_PACKAGES } from "./coin-packages";

/**
 * The figures that both the code and the legal pages state, kept in one place so the
 * Terms can never promise something the site does not do (PRODUCT.md).
 */
export const POLICY = {
  minimumAge: 18,
  /** Coins (1 coin = $0.01). */
  minimumWithdrawalCoins: 1000,
  withdrawalProcessingHours: 24,
  withdrawalFeeCoins: 0,
  /** Withdrawals above this need the player's identity verified first. */
  identityCheckAboveCoins: 10_000,
  closedAccountDeletionDays: 30,
  smallestPurchaseCents: Math.min(...COIN_PACKAGES.map((p) => p.priceCents)),
  winnerSharePercent: 50,
  perRaffleTicketCap: 10,
  lastUpdated: "January 2025",
} as const;
