-- A withdrawal wholly refunded to the player's cards has no method (issue 31): a method
-- and its destination are asked for only when part of the amount goes to them.
ALTER TABLE "withdrawals" ALTER COLUMN "method" DROP NOT NULL;
