-- ledger_apply_postings: stored balances follow postings, per statement rather than per
-- row: a statement inserting many postings (a batch of draws) updates each account once,
-- by the sum of its postings. Callers lock the accounts first (sorted ids); the floors are
-- CHECK constraints on ledger_accounts.
-- Owns: ledger_accounts.balance = the sum of the account's postings (docs/decisions/004-ledger.md).
-- Trigger: ledger_postings_apply_statement (AFTER INSERT, FOR EACH STATEMENT).
CREATE OR REPLACE FUNCTION "ledger_apply_postings"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "ledger_accounts" a SET "balance" = a."balance" + d."amount"
    FROM (SELECT "account_id", sum("amount") AS "amount" FROM "new_postings" GROUP BY "account_id") d
    WHERE a."id" = d."account_id";
  RETURN NULL;
END $$;
