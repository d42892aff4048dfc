-- Refunds and disputes take back exactly what they cover (PRODUCT.md; ADR 017 amendment):
-- how many of a payment's cents have been refunded and disputed so far, so that a refund
-- event (which carries the charge's cumulative refunded amount) takes back only what is new.
ALTER TABLE "payments" ADD COLUMN "refunded_cents" INTEGER NOT NULL DEFAULT 0,
                       ADD COLUMN "disputed_cents" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "payments" ADD CONSTRAINT "payments_reversed_within_amount"
    CHECK ("refunded_cents" >= 0 AND "disputed_cents" >= 0 AND "refunded_cents" + "disputed_cents" <= "amount_cents");
-- Payments reversed before this counted whole.
UPDATE "payments" SET "refunded_cents" = "amount_cents" WHERE "status" = 'refunded';
UPDATE "payments" SET "disputed_cents" = "amount_cents" WHERE "status" = 'disputed';
