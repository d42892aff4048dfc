-- Controls that hold (issue 31; docs/decisions/053-controls-that-hold.md).

-- What a closed account leaves for the person (PRODUCT.md "A self-exclusion outlives the
-- account"): a keyed hash (HMAC) of the normalised email, never the address. `kind` leaves a
-- place for the name and date of birth once identity is verified. A sign-up that matches is
-- refused while the exclusion runs and otherwise gets the limits and the break back.
CREATE TABLE "person_controls" (
    "person_key" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "excluded_until" TIMESTAMPTZ(3),
    "exclusion_kind" TEXT,
    "deposit_limits" JSONB NOT NULL DEFAULT '[]',
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "person_controls_pkey" PRIMARY KEY ("person_key"),
    CONSTRAINT "person_controls_kind" CHECK ("kind" IN ('email', 'identity'))
);

-- Welcome and demo coins, once per person: the first account of a person key claims it.
CREATE TABLE "person_grants" (
    "person_key" TEXT NOT NULL,
    "grant" TEXT NOT NULL,
    "user_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "person_grants_pkey" PRIMARY KEY ("person_key", "grant")
);
ALTER TABLE "person_grants" ADD CONSTRAINT "person_grants_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Every provider event handled, and every dispute: a repeat, or a second event for the same
-- dispute, changes nothing. Inserted in the transaction that acts on the event.
CREATE TABLE "provider_events" (
    "event_id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "provider_events_pkey" PRIMARY KEY ("event_id")
);

CREATE TABLE "payment_disputes" (
    "dispute_id" TEXT NOT NULL,
    "payment_id" UUID NOT NULL,
    "amount_cents" INTEGER NOT NULL,
    "event_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "payment_disputes_pkey" PRIMARY KEY ("dispute_id")
);
CREATE INDEX "payment_disputes_payment_id_idx" ON "payment_disputes"("payment_id");
ALTER TABLE "payment_disputes" ADD CONSTRAINT "payment_disputes_payment_id_fkey" FOREIGN KEY ("payment_id") REFERENCES "payments"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- The VIP multiplier's extra (PRODUCT.md "The multiplier's extra is a gift of the house"):
-- bonus coins from promotions, on top of the pot. The winner's prize is the base (half the
-- pot) plus the extra; the house keeps the other half of the pot.
ALTER TABLE "raffles" ADD COLUMN "prize_extra" BIGINT NOT NULL DEFAULT 0;
ALTER TABLE "raffles" DROP CONSTRAINT "raffles_completed_has_winner";
ALTER TABLE "raffles" ADD CONSTRAINT "raffles_completed_has_winner"
    CHECK ("status" <> 'completed' OR ("winner_id" IS NOT NULL AND "winning_ticket" IS NOT NULL AND "prize" IS NOT NULL AND "rake" IS NOT NULL AND "prize" + "rake" = "final_pot" + "prize_extra"));
