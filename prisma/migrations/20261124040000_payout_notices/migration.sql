-- A player learns what became of a withdrawal on their next page (ADR 021): the withdrawal
-- whose state changed last and that they have not been told about yet. On the user's row,
-- so that the signed-in session (read from memory) carries it and most pages pay nothing.
ALTER TABLE "users" ADD COLUMN "payout_notice_id" UUID;
