-- enter_raffles checks identity first where the law asks for it (ADR 080), in the batch's
-- own statement, instead of a query of its own before each entry (issue 36: the entry
-- figure). Its signature grows by p_verify_countries, so the old one is dropped rather than
-- left as an overload; the runner then applies prisma/sql/functions/enter_raffles.sql.
DROP FUNCTION "enter_raffles"(UUID[], TEXT[], UUID[], TEXT[], INTEGER[], TIMESTAMPTZ[], TIMESTAMPTZ[], TIMESTAMPTZ[], DOUBLE PRECISION[], TEXT, INTEGER, INTERVAL, TEXT[], TEXT[]);
