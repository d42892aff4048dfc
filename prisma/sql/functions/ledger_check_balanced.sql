-- ledger_check_balanced: at commit, every ledger transaction has at least two postings and
-- they sum to zero.
-- Owns: balanced transactions (docs/decisions/004-ledger.md).
-- Triggers: ledger_postings_balanced, ledger_transactions_balanced (deferred constraint
-- triggers).
CREATE OR REPLACE FUNCTION "ledger_check_balanced"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  tx UUID;
  total NUMERIC;
  postings INTEGER;
BEGIN
  IF TG_TABLE_NAME = 'ledger_postings' THEN
    tx := NEW."transaction_id";
  ELSE
    tx := NEW."id";
  END IF;
  SELECT coalesce(sum("amount"), 0), count(*) INTO total, postings FROM "ledger_postings" WHERE "transaction_id" = tx;
  IF total <> 0 OR postings < 2 THEN
    RAISE EXCEPTION 'ledger transaction % is unbalanced (sum %, % postings)', tx, total, postings
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NULL;
END $$;
