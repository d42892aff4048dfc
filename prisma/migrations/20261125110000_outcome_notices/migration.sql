-- Outcomes a player has not been told about yet (docs/decisions/028-telling-players-what-happened.md):
-- the draw writes one row per winner (their prize) and per refunded player of a cancelled
-- raffle (what came back), in the transaction that pays them; the player's next page (or,
-- with JavaScript, the page they are on) takes the rows once (DELETE ... RETURNING) and
-- shows them. The signed-in session, read from memory, says whether any are waiting, so
-- that pages without news pay nothing: the triggers in
-- prisma/sql/functions/read_model_outcome_notices_changed.sql tell the read model.
CREATE TABLE "outcome_notices" (
    "user_id" UUID NOT NULL,
    "raffle_id" UUID NOT NULL,
    "outcome" TEXT NOT NULL,
    "amount" BIGINT NOT NULL,
    "tickets" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "outcome_notices_pkey" PRIMARY KEY ("user_id", "raffle_id"),
    CONSTRAINT "outcome_notices_outcome" CHECK ("outcome" IN ('won', 'refunded'))
);
CREATE INDEX "outcome_notices_raffle_id_idx" ON "outcome_notices"("raffle_id");
ALTER TABLE "outcome_notices" ADD CONSTRAINT "outcome_notices_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "outcome_notices" ADD CONSTRAINT "outcome_notices_raffle_id_fkey" FOREIGN KEY ("raffle_id") REFERENCES "raffles"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
