import { userBalance } from "~/models/ledger.server";
import type { SessionUser } from "./auth.server";
import { activeVipTier } from "./vip";

/**
 * The spec's user record (section 3): coins as integers, no password hash, no internal
 * fields. The tier shows as bronze when no VIP period is active (PRODUCT.md).
 */
export async function userRecord(user: SessionUser, now = new Date()) {
  const tier = activeVipTier(user, now);
  return {
    id: user.id,
    username: user.username,
    firstName: user.firstName,
    email: user.email,
    coinBalance: Number(await userBalance(user.id)),
    totalWinnings: Number(user.totalWinnings),
    vipTier: tier ?? "bronze",
    vipActive: tier !== null,
    vipExpiry: user.vipExpiry?.toISOString() ?? null,
    isAdmin: user.isAdmin,
    createdAt: user.createdAt.toISOString(),
  };
}

export type UserRecord = Awaited<ReturnType<typeof userRecord>>;
