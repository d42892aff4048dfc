import { recordAudit } from "~/models/back-office/audit-event.server";
import { db } from "~/models/db.server";
import { updateSettings } from "~/models/accounts/user.server";
import type { PlayerSettings } from "~/shared/player-settings";

/** The player's settings as the session read them. */
export function settingsOf(user: PlayerSettings): PlayerSettings {
  return {
    emailNotifications: user.emailNotifications,
    soundEffects: user.soundEffects,
    quickRaffleNotifications: user.quickRaffleNotifications,
    emailEntryReceipts: user.emailEntryReceipts,
  };
}

/**
 * Saves the player's settings, with an audit row saying what changed: whether a player
 * agreed to emails is something support may have to show later.
 */
export async function saveSettings(userId: string, settings: PlayerSettings): Promise<PlayerSettings> {
  await db().$transaction(async (tx) => {
    const before = await updateSettings(tx, userId, settings);
    const changed = (Object.keys(settings) as (keyof PlayerSettings)[]).filter((key) => before[key] !== settings[key]);
    if (changed.length === 0) return;
    await recordAudit(tx, { actor: userId, action: "settings.update", target: `user:${userId}`, details: { before, after: settings } });
  });
  return settings;
}
