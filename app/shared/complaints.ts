import { z } from "zod";
import { UUID } from "./uuid";

/** What a complaint can be about; a draw or a payout names the raffle or withdrawal concerned. */
export const COMPLAINT_SUBJECTS = {
  draw: "A draw",
  payout: "A payout (withdrawal)",
  account: "A decision about my account",
  other: "Something else",
} as const;
export type ComplaintSubject = keyof typeof COMPLAINT_SUBJECTS;
export const SUBJECT_KEYS = Object.keys(COMPLAINT_SUBJECTS) as [ComplaintSubject, ...ComplaintSubject[]];

/** The player's words for each state. */
export const COMPLAINT_STATES = { received: "Received", answered: "Answered", closed: "Closed" } as const;
export type ComplaintStatus = keyof typeof COMPLAINT_STATES;

export const COMPLAINT_MESSAGE_MAX = 4000;
export const COMPLAINT_ANSWER_MAX = 4000;

/**
 * Filing a complaint, on the page (conform) and in the API: a subject, the raffle or
 * withdrawal id for a draw or a payout (optional), the player's words, and the form's token
 * (`requestId`) that makes a second submit of the same form file nothing.
 */
export const fileComplaintSchema = z.object({
  subject: z.enum(SUBJECT_KEYS, { message: "Choose what the complaint is about" }),
  reference: z
    .string()
    .trim()
    .regex(UUID, "Enter the raffle or withdrawal ID as shown in your history, or leave it empty")
    .transform((v) => v.toLowerCase())
    .optional(),
  message: z
    .string({ message: "Say what went wrong" })
    .trim()
    .min(10, "Say what went wrong (10 characters or more)")
    .max(COMPLAINT_MESSAGE_MAX, `At most ${COMPLAINT_MESSAGE_MAX} characters`),
  requestId: z
    .string()
    .regex(/^[\w-]{8,64}$/, "The form's token is missing: open the form again")
    .optional(),
});
export type FileComplaint = z.output<typeof fileComplaintSchema>;

/** An admin's answer: what the player reads, on the page and by email. */
export const answerComplaintSchema = z.object({
  answer: z
    .string({ message: "Write the answer the player will read" })
    .trim()
    .min(10, "Write the answer the player will read (10 characters or more)")
    .max(COMPLAINT_ANSWER_MAX, `At most ${COMPLAINT_ANSWER_MAX} characters`),
});
