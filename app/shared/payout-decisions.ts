/**
 * The reasons an admin picks from when rejecting a payout: the player reads the one chosen
 * (with the admin's own words after it, if any), so each is written to them.
 */
export const REJECT_REASONS = [
  "The name on the payout account does not match your account",
  "We could not verify your identity",
  "The payout details are wrong or incomplete",
  "The request breaks the Terms",
] as const;

/** What the player reads: the chosen reason, then the admin's words; empty when neither was given. */
export function rejectReasonText(choice: string | undefined, words: string | undefined): string {
  return [choice, words]
    .filter((part): part is string => Boolean(part?.trim()))
    .map((part) => part.trim())
    .join(". ");
}
