-- An admin's early completion closes a raffle at once and commits it to the next beacon
-- round (issue 34, docs/decisions/078-early-completion-closes-and-waits-for-the-next-round.md):
-- closed_at is when; entries (enter_raffles) are refused once it is set, under the raffle's
-- lock. ends_at and the beacon round become the close's; the first commitment is kept beside.
ALTER TABLE "raffles"
    ADD COLUMN "closed_at" TIMESTAMPTZ(3),
    ADD COLUMN "scheduled_ends_at" TIMESTAMPTZ(3),
    ADD COLUMN "scheduled_beacon_chain" TEXT,
    ADD COLUMN "scheduled_beacon_round" BIGINT,
    ADD CONSTRAINT "raffles_closed_keeps_schedule" CHECK (("closed_at" IS NULL) = ("scheduled_ends_at" IS NULL));

-- The public feed lists each early close at its time, newest first: read by this index.
CREATE INDEX "raffles_closed_at_idx" ON "raffles"("closed_at");
