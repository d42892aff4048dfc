import { playerState } from "./player-state.server";
import type { SessionUser } from "./sessions.server";
import { settingsOf } from "./settings.server";
import { activeVipTier } from "~/shared/vip";

/**
 * The spec's user record (section 3): coins as integers, no password hash, no internal
 * fields. `coinBalance` is every coin the player can play with; `cashBalance` (withdrawable)
 * and `bonusBalance` (play only) split it (PRODUCT.md). The tier shows as bronze when no
 * VIP period is active.
 */
export async function userRecord(user: SessionUser, now = new Date()) {
  const tier = activeVipTier(user, now);
  const { cash, bonus } = await playerState(user.id);
  return {
    id: user.id,
    username: user.username,
    firstName: user.firstName,
    email: user.email,
    coinBalance: Number(cash + bonus),
    cashBalance: Number(cash),
    bonusBalance: Number(bonus),
    totalWinnings: Number(user.totalWinnings),
    vipTier: tier ?? "bronze",
    vipActive: tier !== null,
    vipExpiry: user.vipExpiry?.toISOString() ?? null,
    isAdmin: user.isAdmin,
    createdAt: user.createdAt.toISOString(),
    /** What the settings say: the page plays sounds and shows notifications by them. */
    settings: settingsOf(user),
  };
}

export type UserRecord = Awaited<ReturnType<typeof userRecord>>;
