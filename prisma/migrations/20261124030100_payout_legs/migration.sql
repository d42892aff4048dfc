-- A withdrawal is paid in legs (docs/decisions/018-payouts-that-move-money.md): refunds of
-- the player's card payments (money goes back the way it came) and a transfer of the rest
-- to the method they chose. Each leg completes when the money moved (the provider
-- confirmed the refund, or an admin recorded the transfer's reference) or fails with a
-- reason, its amount going back to the player's cash.
CREATE TYPE "PayoutLegKind" AS ENUM ('card_refund', 'transfer');
CREATE TYPE "PayoutLegStatus" AS ENUM ('pending', 'processing', 'completed', 'failed', 'review');

CREATE TABLE "payout_legs" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "withdrawal_id" UUID NOT NULL,
    "position" INTEGER NOT NULL,
    "kind" "PayoutLegKind" NOT NULL,
    "payment_id" UUID,
    "amount" BIGINT NOT NULL,
    "bonus_taken" BIGINT NOT NULL DEFAULT 0,
    "status" "PayoutLegStatus" NOT NULL DEFAULT 'pending',
    "provider_reference" TEXT,
    "failure_reason" TEXT,
    "completed_by_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "settled_at" TIMESTAMPTZ(3),

    CONSTRAINT "payout_legs_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "payout_legs_amount_positive" CHECK ("amount" > 0),
    CONSTRAINT "payout_legs_refund_has_payment" CHECK (("kind" = 'card_refund') = ("payment_id" IS NOT NULL))
);
CREATE UNIQUE INDEX "payout_legs_withdrawal_id_position_key" ON "payout_legs"("withdrawal_id", "position");
CREATE UNIQUE INDEX "payout_legs_provider_reference_key" ON "payout_legs"("provider_reference");
CREATE INDEX "payout_legs_status_kind_idx" ON "payout_legs"("status", "kind");
CREATE INDEX "payout_legs_payment_id_idx" ON "payout_legs"("payment_id");
ALTER TABLE "payout_legs" ADD CONSTRAINT "payout_legs_withdrawal_id_fkey" FOREIGN KEY ("withdrawal_id") REFERENCES "withdrawals"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "payout_legs" ADD CONSTRAINT "payout_legs_payment_id_fkey" FOREIGN KEY ("payment_id") REFERENCES "payments"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

ALTER TABLE "withdrawals" ADD COLUMN "failure_reason" TEXT;

-- Requests made before legs existed: one transfer leg each, in the state of its request.
-- (Completed ones were marked so by an approval that sent nothing: support reconciles them.)
INSERT INTO "payout_legs" ("withdrawal_id", "position", "kind", "amount", "status", "settled_at")
SELECT "id", 0, 'transfer', "amount",
       CASE "status" WHEN 'completed' THEN 'completed'::"PayoutLegStatus" WHEN 'rejected' THEN 'failed'::"PayoutLegStatus" ELSE 'pending'::"PayoutLegStatus" END,
       CASE WHEN "status" IN ('completed', 'rejected') THEN "decided_at" END
FROM "withdrawals";
