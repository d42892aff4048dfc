-- ledger_check_balanced: at commit, every ledger transaction has at least two postings,
-- and they sum to zero in cash and in bonus coins separately: an account's kind names its
-- currency (bonus: user_bonus, raffle_pot_bonus, promotions; cash: every other kind), so
-- no transaction turns bonus coins into cash or cash into bonus.
-- Owns: balanced transactions (docs/decisions/004-ledger.md) and the separation of cash
-- and bonus coins (docs/decisions/017-cash-and-bonus-coins.md).
-- Triggers: ledger_postings_balanced, ledger_transactions_balanced (deferred constraint
-- triggers). Each ledger transaction is summed once: a posting whose transaction was
-- inserted by this same database transaction is left to that transaction's own trigger,
-- which fires at the same commit (a batch of 100 draws commits 100 checks, not 500); a
-- posting added to a transaction committed earlier is checked by its own trigger.
CREATE OR REPLACE FUNCTION "ledger_check_balanced"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  tx UUID;
  total NUMERIC;
  bonus NUMERIC;
  postings INTEGER;
  owner UUID;
  ours BOOLEAN;
  strangers INTEGER;
BEGIN
  IF TG_TABLE_NAME = 'ledger_postings' THEN
    tx := NEW."transaction_id";
    SELECT t."user_id", t.xmin = pg_current_xact_id()::xid INTO owner, ours FROM "ledger_transactions" t WHERE t."id" = tx;
    IF ours THEN
      RETURN NULL;
    END IF;
  ELSE
    tx := NEW."id";
    owner := NEW."user_id";
  END IF;
  SELECT coalesce(sum(p."amount"), 0),
         coalesce(sum(p."amount") FILTER (WHERE a."kind" IN ('user_bonus', 'raffle_pot_bonus', 'promotions')), 0),
         count(*),
         count(*) FILTER (WHERE a."user_id" IS NOT NULL AND a."user_id" IS DISTINCT FROM owner)
    INTO total, bonus, postings, strangers
    FROM "ledger_postings" p JOIN "ledger_accounts" a ON a."id" = p."account_id"
    WHERE p."transaction_id" = tx;
  IF total <> 0 OR postings < 2 THEN
    RAISE EXCEPTION 'ledger transaction % is unbalanced (sum %, % postings)', tx, total, postings
      USING ERRCODE = 'check_violation';
  END IF;
  IF bonus <> 0 THEN
    RAISE EXCEPTION 'ledger transaction % moves % coins between cash and bonus', tx, bonus
      USING ERRCODE = 'check_violation';
  END IF;
  IF strangers > 0 THEN
    RAISE EXCEPTION 'ledger transaction % posts to % account(s) of a player it does not name', tx, strangers
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NULL;
END $$;
