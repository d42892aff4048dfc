-- forbid_change: the ledger (transactions, postings) and the audit log are append-only.
-- Owns: no UPDATE, DELETE or TRUNCATE of those tables (docs/decisions/004-ledger.md), and no
-- UPDATE or DELETE of a beacon chain that raffles' commitments name (ADR 033).
-- Triggers: ledger_postings_append_only, ledger_postings_no_truncate,
-- ledger_transactions_append_only, ledger_transactions_no_truncate,
-- audit_events_append_only, audit_events_no_truncate, beacon_chains_append_only.
CREATE OR REPLACE FUNCTION "forbid_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is append-only', TG_TABLE_NAME USING ERRCODE = 'insufficient_privilege';
END $$;
