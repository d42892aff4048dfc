-- Closing an account (docs/decisions/035-closing-an-account.md): when the player closed it.
-- A closed account keeps its ledger, payments, withdrawals and audit trail; its personal
-- fields are emptied and its email replaced by a tombstone, so the address may sign up again.
ALTER TABLE "users" ADD COLUMN "closed_at" TIMESTAMPTZ(3);
