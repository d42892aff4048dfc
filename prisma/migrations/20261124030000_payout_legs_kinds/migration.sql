-- Honest payout states (docs/decisions/018-payouts-that-move-money.md): approved (decided,
-- not yet sent) and failed (nothing or not everything was sent; the rest came back as
-- cash). New enum values are usable only once committed, hence a migration of their own.
ALTER TYPE "WithdrawalStatus" ADD VALUE 'approved' AFTER 'pending';
ALTER TYPE "WithdrawalStatus" ADD VALUE 'failed';
