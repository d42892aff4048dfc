import { z } from "zod";

/**
 * The settings that follow the player's account: stored on the user's row, read
 * with the session, saved by a plain form (JavaScript off) or a fetcher. The theme stays
 * in its cookie (the server needs it before it knows who is signed in).
 */
export type PlayerSettings = {
  /** Optional emails (wins, withdrawals, receipts) are sent only when on. */
  emailNotifications: boolean;
  /** A short sound when a round the player entered is drawn. */
  soundEffects: boolean;
  /** A browser notification when a quick round the player entered is drawn. */
  quickRaffleNotifications: boolean;
  /** A receipt by email for every ticket bought (ADR 079): off until the player turns it on. */
  emailEntryReceipts: boolean;
};

export const SETTING_LABELS: Record<keyof PlayerSettings, { label: string; hint: string; group: "Notifications" | "Audio & Effects" }> = {
  emailNotifications: { label: "Email notifications", hint: "Wins, withdrawals and payment receipts by email.", group: "Notifications" },
  emailEntryReceipts: {
    label: "Email receipts",
    hint: "An email for every ticket you buy, with its receipt: the raffle, its commitment, your ticket number and what you paid.",
    group: "Notifications",
  },
  quickRaffleNotifications: {
    label: "Quick raffle notifications",
    hint: "A browser notification when a quick round you entered is drawn. Your browser asks for permission first.",
    group: "Notifications",
  },
  soundEffects: { label: "Sound effects", hint: "A short sound when a round you entered is drawn.", group: "Audio & Effects" },
};

export const SETTING_KEYS = Object.keys(SETTING_LABELS) as (keyof PlayerSettings)[];

/** A checkbox: "on" when ticked, absent when not (what a browser sends); "true"/"false" from scripts. */
const checkbox = z
  .enum(["on", "true", "false", "off"])
  .optional()
  .transform((value) => value === "on" || value === "true");

/** The settings form: every setting at once, so that a form without JavaScript can turn one off. */
export const settingsSchema = z.object({
  emailNotifications: checkbox,
  soundEffects: checkbox,
  quickRaffleNotifications: checkbox,
  emailEntryReceipts: checkbox,
});
