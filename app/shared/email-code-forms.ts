import { z } from "zod";

/**
 * The 6-digit codes sent by mail: verifying the address, confirming a new
 * one. Read by conform in the browser and by `parseWithZod` in the action. Only an overlong
 * code is refused here; any other (a blank one included) goes to the service, which counts
 * the guess before it checks it.
 */
export const mailedCode = z.string().trim().max(20, "That code is too long.").default("");

/** The withdraw page's panel: the code, or a new message. */
export const verifyCodeSchema = z.object({ intent: z.literal("code"), code: mailedCode });
export const resendSchema = z.object({ intent: z.literal("resend") });
/** The link's page: its button posts the token (a mail scanner that follows links verifies nothing). */
export const verifyLinkSchema = z.object({ intent: z.literal("link"), token: z.string({ message: "This link is not complete." }).max(200) });
export const verifyEmailSchema = z.discriminatedUnion("intent", [verifyLinkSchema, verifyCodeSchema, resendSchema], { message: "Unknown action" });
