import { z } from "zod";
import type { CurrentSession } from "~/services/accounts/sessions.server";
import { approvePayout, completeRaffle, rejectPayout, suspendUser, verifyIdentity } from "~/services/back-office/admin.server";
import { bulkApprove } from "~/services/money/bulk-approval.server";
import { utcMinute } from "~/shared/dates";
import { uuidParam } from "~/web/http.server";
import { settleTransfer } from "~/services/money/transfers.server";
import { clearFlag, reconcileRefund } from "~/services/money/reconciliation.server";
import { extendExclusionByAdmin } from "~/services/play-safety/responsible-play.server";
import type { NewToast } from "~/shared/toast";
import { REJECT_REASONS, rejectReasonText } from "~/shared/payout-decisions";

/**
 * The back office's actions (HTTP glue over the back-office and money services), each as its JSON answer (for `/api/admin/...`) and its toast
 * (for the back office's forms, `/admin/...`): both routes read the same input and call the
 * same service. `id` is the route's `:id`; `input` reads the body against the
 * action's schema: the API's JSON (`readJson`), the back office's form (`readSubmission`,
 * conform's `parseWithZod`), a 400 with the first field's message either way.
 */
export type AdminOutcome = { json: unknown; toast: NewToast };
export type AdminInput = <T extends z.ZodType>(schema: T) => Promise<z.output<T>>;
export type AdminRun = (session: CurrentSession, input: AdminInput, id: string | undefined) => Promise<AdminOutcome>;

export const PAYOUT_UPDATED = { type: "success", title: "Payout updated successfully" } as const;

/** {choice}: one of the reasons the player reads; {reason}: the admin's own words (after the choice, or alone). */
const rejectSchema = z
  .object({ choice: z.enum(REJECT_REASONS).optional(), reason: z.string().trim().max(200).optional() })
  .transform(({ choice, reason }) => rejectReasonText(choice, reason))
  .refine((text) => text.length > 0, { message: "Choose or write the reason the player will read", path: ["reason"] });

/**
 * {reference} records that the payout's transfer was sent by hand (its bank or wallet
 * reference), or that a refund held for review reached the card (the provider's reference);
 * {failure} records that it did not, with the reason the player is told.
 */
const transferSchema = z.union([
  z
    .object({
      reference: z
        .string()
        .trim()
        .min(3)
        .max(100)
        .regex(/^[\w .:#/-]+$/, "letters, digits and . : # / - only"),
    })
    .strict(),
  z.object({ failure: z.string().trim().min(3).max(200) }).strict(),
]);

/** {maxAmount}: the spec's thresholds, $50 or $100. */
export const bulkSchema = z.object({ maxAmount: z.coerce.number().refine((v) => v === 50 || v === 100, "maxAmount must be 50 or 100") });

const suspendSchema = z.object({
  suspended: z
    .enum(["true", "false"])
    .or(z.boolean())
    .transform((v) => v === true || v === "true"),
});

/** {flaggedAt}: when the flag the admin saw was set (ISO 8601); {note}: why it is cleared, for the audit log. */
const clearFlagSchema = z.object({
  flaggedAt: z.iso.datetime({ offset: true, message: "flaggedAt must be the flag's time, as shown" }).transform((v) => new Date(v)),
  note: z.string().trim().min(3, "Say why the flag is cleared (3 characters or more)").max(200),
});

const exclusionSchema = z.object({ choice: z.enum(["24h", "7d", "30d", "6m", "1y", "5y"], { message: "Choose a period: 24h, 7d, 30d, 6m, 1y or 5y" }) });

export const approvePayoutAction: AdminRun = async (session, _input, id) => {
  const decision = await approvePayout(session.user.id, uuidParam(id));
  const awaiting = decision.status === "awaiting_second_approval";
  return {
    json: decision,
    toast: awaiting ? { type: "info", title: "First approval recorded", description: "A second admin must approve this payout." } : PAYOUT_UPDATED,
  };
};

export const rejectPayoutAction: AdminRun = async (session, input, id) => {
  const reason = await input(rejectSchema);
  return { json: await rejectPayout(session.user.id, uuidParam(id), reason), toast: PAYOUT_UPDATED };
};

export const settleTransferAction: AdminRun = async (session, input, id) => {
  const outcome = await input(transferSchema);
  return { json: await settleTransfer(session.user.id, uuidParam(id), outcome), toast: PAYOUT_UPDATED };
};

/** Settles a refund held for review (the route's `:id` is its leg) after checking with the provider. */
export const reconcileRefundAction: AdminRun = async (session, input, id) => {
  const outcome = await input(transferSchema);
  return { json: await reconcileRefund(session.user.id, uuidParam(id), outcome), toast: PAYOUT_UPDATED };
};

export const clearFlagAction: AdminRun = async (session, input, id) => {
  const { flaggedAt, note } = await input(clearFlagSchema);
  await clearFlag(session.user.id, uuidParam(id), flaggedAt, note);
  return { json: { flagged: false }, toast: { type: "success", title: "Flag cleared" } };
};

export const bulkApproveAction: AdminRun = async (session, input) => {
  const { maxAmount } = await input(bulkSchema);
  const { approved, total } = await bulkApprove(session.user.id, maxAmount * 100);
  const message = `Approved ${approved} payouts up to $${maxAmount}, $${total} in all`;
  return { json: { message, approved, total }, toast: { ...PAYOUT_UPDATED, description: message } };
};

export const completeRaffleAction: AdminRun = async (session, _input, id) => {
  const outcome = await completeRaffle(session.user.id, uuidParam(id));
  if (outcome.outcome === "closed") {
    const description = `Entries are closed. The winner is drawn with public beacon round ${outcome.beaconRound}, the first after the close.`;
    return {
      json: { outcome: outcome.outcome, raffleId: outcome.raffleId, closedAt: outcome.closedAt.toISOString(), beaconRound: outcome.beaconRound },
      toast: { type: "success", title: "Raffle closed", description },
    };
  }
  return {
    json: { outcome: outcome.outcome, raffleId: outcome.raffleId },
    toast:
      outcome.outcome === "completed"
        ? { type: "success", title: "Raffle Completed!", description: "Raffle has been completed and winner selected" }
        : { type: "success", title: "Raffle Completed!", description: "Fewer than two players: the raffle was cancelled and every ticket refunded" },
  };
};

/** {reason}: why the admin records a verification done outside the site (documents seen by support, another provider's check). */
const verifySchema = z.object({
  reason: z
    .string({ message: "Say how the identity was verified outside the site" })
    .trim()
    .min(5, "Say how the identity was verified outside the site")
    .max(300),
});

export const verifyIdentityAction: AdminRun = async (session, input, id) => {
  const { reason } = await input(verifySchema);
  await verifyIdentity(session.user.id, uuidParam(id), reason);
  return { json: { verified: true }, toast: { type: "success", title: "Verification recorded" } };
};

export const suspendUserAction: AdminRun = async (session, input, id) => {
  const { suspended } = await input(suspendSchema);
  await suspendUser(session.user.id, uuidParam(id), suspended);
  return { json: { suspended }, toast: { type: "success", title: suspended ? "Player suspended" : "Suspension lifted" } };
};

/** Lengthens a player's running break or exclusion (admins can do nothing else to it). */
export const extendExclusionAction: AdminRun = async (session, input, id) => {
  const { choice } = await input(exclusionSchema);
  const { until, kind } = await extendExclusionByAdmin(session.user.id, uuidParam(id), choice);
  return { json: { until: until.toISOString(), kind }, toast: { type: "success", title: "Exclusion extended", description: `Now until ${utcMinute(until)}.` } };
};
