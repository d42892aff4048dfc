-- The demo crowd (ADR 074): simulated players a demo signs up so that a fresh site has live
-- pots and winners. Every place that names a player marks them, so the mark is on the row.
ALTER TABLE "users" ADD COLUMN "is_demo" BOOLEAN NOT NULL DEFAULT false;
