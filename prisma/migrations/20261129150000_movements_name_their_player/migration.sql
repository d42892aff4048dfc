-- A player's history reads their transactions by (user_id, created_at), so every posting
-- to a player's account must belong to a transaction naming that player. Every writer has
-- named the player since the ledger began, and ledger_check_balanced now refuses one that
-- does not; a database that holds such a posting stops here rather than hide it from the
-- player's history (docs/decisions/092-a-players-movements-are-their-transactions.md).
DO $$
DECLARE
  strays BIGINT;
BEGIN
  SELECT count(*) INTO strays
    FROM "ledger_postings" p
    JOIN "ledger_accounts" a ON a."id" = p."account_id"
    JOIN "ledger_transactions" t ON t."id" = p."transaction_id"
    WHERE a."user_id" IS NOT NULL AND a."user_id" IS DISTINCT FROM t."user_id";
  IF strays > 0 THEN
    RAISE EXCEPTION '% ledger postings to a player''s account belong to a transaction that does not name the player', strays;
  END IF;
END $$;
