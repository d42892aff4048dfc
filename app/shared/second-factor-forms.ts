import { z } from "zod";

/**
 * The forms that take a second factor's code: sign-in's second step, the
 * player's two-factor settings and the admin gate. One schema per form, read by conform in
 * the browser and by `parseWithZod` in the action. Only an overlong code or key is refused
 * here: anything else, a blank one included, goes to the server's check, which counts and
 * audits it as an attempt (the inputs are `required`, so a browser does not send a blank).
 */
const code = z.string().max(100, "That code is too long.").default("");

/** Sign-in's second step: the app's code or a recovery code. */
export const signInCodeSchema = z.object({ code });

/** The first code from the app, which turns the factor on (settings and admin gate). */
export const confirmEnrolmentSchema = z.object({ intent: z.literal("confirm"), code });

export const beginEnrolmentSchema = z.object({ intent: z.literal("begin") });
export const turnOffSchema = z.object({ intent: z.literal("disable"), code });
export const playerTwoFactorSchema = z.discriminatedUnion("intent", [beginEnrolmentSchema, confirmEnrolmentSchema, turnOffSchema], {
  message: "Choose what to do.",
});

/** The admin gate: the bootstrap key, the first code, a code, or the passkey this session signed in with. */
export const gateKeySchema = z.object({
  intent: z.literal("key"),
  key: z.string().max(500, "That key is too long.").default(""),
});
export const gateCodeSchema = z.object({ intent: z.literal("code"), code });
export const gatePasskeySchema = z.object({ intent: z.literal("passkey") });
export const adminGateSchema = z.discriminatedUnion("intent", [gateKeySchema, confirmEnrolmentSchema, gateCodeSchema, gatePasskeySchema], {
  message: "Choose what to do.",
});
