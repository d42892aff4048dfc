-- Closing an account (docs/decisions/035-closing-an-account.md): the bonus coins a closed
-- account still holds go back to the promotions account as a transaction of this kind. A
-- new enum value can be used only once the transaction that added it has committed, hence
-- a migration of its own.
ALTER TYPE "LedgerTransactionKind" ADD VALUE 'forfeit';
