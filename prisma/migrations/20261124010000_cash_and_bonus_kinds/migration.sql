-- Cash and bonus coins (docs/decisions/017-cash-and-bonus-coins.md): the new account kinds
-- and the one-off transaction kind of the next migration. A new enum value can be used
-- only once the transaction that added it has committed, hence a migration of its own.
ALTER TYPE "LedgerAccountKind" ADD VALUE 'user_bonus' AFTER 'user';
ALTER TYPE "LedgerAccountKind" ADD VALUE 'raffle_pot_bonus' AFTER 'raffle_pot';
ALTER TYPE "LedgerTransactionKind" ADD VALUE 'reclassification';
