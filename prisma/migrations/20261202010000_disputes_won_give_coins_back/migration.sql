-- A dispute closed in our favour gives the player back what it took (ADR 108): each dispute
-- keeps the cents it covered and the coins it took, and when it was won. Disputes recorded
-- before this kept neither: their coins taken are unknown (NULL), and a win of one is left
-- to support.
ALTER TABLE "payment_disputes"
  ADD COLUMN "covered_cents" INTEGER,
  ADD COLUMN "taken_cash" BIGINT,
  ADD COLUMN "taken_bonus" BIGINT,
  ADD COLUMN "won_at" TIMESTAMPTZ(3);
UPDATE "payment_disputes" SET "covered_cents" = "amount_cents";
ALTER TABLE "payment_disputes" ALTER COLUMN "covered_cents" SET DEFAULT 0, ALTER COLUMN "covered_cents" SET NOT NULL;
