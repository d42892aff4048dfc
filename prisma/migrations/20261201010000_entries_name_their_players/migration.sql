-- enter_raffles answers each accepted entry with its entrant's id, so the instance that sent
-- it forgets the tickets it keeps of that player before answering (ADR 103). Its result
-- grows, so the old function is dropped rather than replaced; the runner then applies
-- prisma/sql/functions/enter_raffles.sql.
DROP FUNCTION IF EXISTS "enter_raffles"(UUID[], TEXT[], UUID[], TEXT[], INTEGER[], TIMESTAMPTZ[], TIMESTAMPTZ[], TIMESTAMPTZ[], DOUBLE PRECISION[], TEXT, INTEGER, INTERVAL, TEXT[], TEXT[], TEXT[]);
