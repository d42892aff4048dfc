-- enter_raffles answers each accepted entry with its raffle's figures after it (kind, pot,
-- tickets, players), so the instance that sent it moves the pot on the lists it keeps before
-- answering (ADR 101). Its result grows, so the old function is dropped rather than replaced;
-- the runner then applies prisma/sql/functions/enter_raffles.sql (a new database has none yet).
DROP FUNCTION IF EXISTS "enter_raffles"(UUID[], TEXT[], UUID[], TEXT[], INTEGER[], TIMESTAMPTZ[], TIMESTAMPTZ[], TIMESTAMPTZ[], DOUBLE PRECISION[], TEXT, INTEGER, INTERVAL, TEXT[], TEXT[], TEXT[]);
