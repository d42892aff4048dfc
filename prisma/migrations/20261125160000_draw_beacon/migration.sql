-- Draws joined by a public randomness beacon (docs/decisions/033-draws-with-a-public-beacon.md):
-- a raffle's commitment names, besides its seed's hash, a drand chain and the round it waits
-- for (the first round after its end); the draw records that round's signature. A raffle
-- committed without a beacon has neither (both null, drawn as before). A raffle cancelled
-- says why.
CREATE TABLE "beacon_chains" (
    "hash" TEXT NOT NULL,
    "public_key" TEXT NOT NULL,
    "scheme" TEXT NOT NULL,
    "period_seconds" INTEGER NOT NULL,
    "genesis_time" BIGINT NOT NULL,
    "beacon_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "beacon_chains_pkey" PRIMARY KEY ("hash")
);

ALTER TABLE "raffles"
    ADD COLUMN "beacon_chain" TEXT,
    ADD COLUMN "beacon_round" BIGINT,
    ADD COLUMN "beacon_signature" TEXT,
    ADD COLUMN "cancel_reason" TEXT,
    ADD CONSTRAINT "raffles_beacon_named_whole" CHECK (("beacon_chain" IS NULL) = ("beacon_round" IS NULL)),
    ADD CONSTRAINT "raffles_beacon_signature_needs_round" CHECK ("beacon_signature" IS NULL OR "beacon_round" IS NOT NULL);

ALTER TABLE "raffles" ADD CONSTRAINT "raffles_beacon_chain_fkey" FOREIGN KEY ("beacon_chain") REFERENCES "beacon_chains"("hash") ON DELETE RESTRICT ON UPDATE CASCADE;

-- A beacon chain's facts never change: a raffle's commitment refers to them.
CREATE TRIGGER "beacon_chains_append_only" BEFORE UPDATE OR DELETE ON "beacon_chains"
    FOR EACH ROW EXECUTE FUNCTION forbid_change();
