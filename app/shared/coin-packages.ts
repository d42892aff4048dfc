/** The coin store (spec section 9): prices in cents, coins at 1 coin = $0.01. */
export const COIN_PACKAGES = [
  { id: "package_1", coins: 100, priceCents: 99 },
  { id: "package_2", coins: 600, priceCents: 499, badge: "POPULAR" },
  { id: "package_3", coins: 1500, priceCents: 999, badge: "BEST VALUE" },
  { id: "package_4", coins: 5000, priceCents: 2499 },
] as const;

export type CoinPackageId = (typeof COIN_PACKAGES)[number]["id"];

export function findCoinPackage(id: string | null | undefined) {
  return COIN_PACKAGES.find((p) => p.id === id);
}
