import { z } from "zod";
import { LIMIT_HINT, limitCents } from "./responsible-play-options";

// Apart from responsible-play-options.ts, whose choices the shell of every page uses: those pages load no zod.
const optionalLimit = z
  .string()
  .trim()
  .max(12, LIMIT_HINT)
  .refine((text) => limitCents(text) !== undefined, LIMIT_HINT)
  .optional();

/** The optional limit fields of the sign-up form and the first-purchase offer. */
export const depositLimitFields = { limitDay: optionalLimit, limitWeek: optionalLimit, limitMonth: optionalLimit };

/**
 * The responsible-play page's forms, one schema each (conform in the browser,
 * `parseWithZod` in the action). A limit left blank removes it; the break's choice must
 * be confirmed. The first-purchase offer (`limits`) posts from the checkout page.
 */
export const limitFormSchema = z.object({
  intent: z.literal("limit"),
  period: z.enum(["day", "week", "month"]),
  amount: z
    .string()
    .trim()
    .max(12, LIMIT_HINT)
    .refine((text) => text === "" || limitCents(text) !== undefined, LIMIT_HINT)
    .optional(),
});
export const limitsOfferSchema = z.object({ intent: z.literal("limits"), returnTo: z.string().optional(), ...depositLimitFields });
export const realityCheckFormSchema = z.object({
  intent: z.literal("reality"),
  minutes: z.enum(["off", "15", "30", "60"], { message: "Choose off, 15, 30 or 60 minutes" }),
});
export const exclusionFormSchema = z.object({
  intent: z.literal("exclude"),
  choice: z.enum(["24h", "7d", "30d", "6m", "1y", "5y"], { message: "Choose a period" }),
  confirm: z.literal("on", { message: "Please confirm" }),
});
export const responsiblePlaySchema = z.discriminatedUnion("intent", [limitFormSchema, limitsOfferSchema, realityCheckFormSchema, exclusionFormSchema]);
