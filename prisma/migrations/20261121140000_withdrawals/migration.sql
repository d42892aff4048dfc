-- CreateEnum
CREATE TYPE "WithdrawalMethod" AS ENUM ('venmo', 'paypal', 'bank', 'debit_card');

-- CreateEnum
CREATE TYPE "WithdrawalStatus" AS ENUM ('pending', 'processing', 'completed', 'rejected');

-- AlterTable
ALTER TABLE "users" ADD COLUMN "identity_verified_at" TIMESTAMPTZ(3);

-- CreateTable
CREATE TABLE "withdrawals" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "user_id" UUID NOT NULL,
    "amount" BIGINT NOT NULL,
    "method" "WithdrawalMethod" NOT NULL,
    "destination_masked" TEXT NOT NULL,
    "destination_encrypted" TEXT,
    "card_token" TEXT,
    "card_last4" TEXT,
    "card_expiry" TEXT,
    "requires_verification" BOOLEAN NOT NULL DEFAULT false,
    "status" "WithdrawalStatus" NOT NULL DEFAULT 'pending',
    "first_approver_id" UUID,
    "decided_by_id" UUID,
    "reject_reason" TEXT,
    "decided_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "withdrawals_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "withdrawals_amount_positive" CHECK ("amount" > 0),
    CONSTRAINT "withdrawals_card_last4" CHECK ("card_last4" IS NULL OR "card_last4" ~ '^[0-9]{4}$')
);

-- CreateIndex
CREATE INDEX "withdrawals_user_id_created_at_idx" ON "withdrawals"("user_id", "created_at");

-- CreateIndex
CREATE INDEX "withdrawals_status_created_at_idx" ON "withdrawals"("status", "created_at");

-- AddForeignKey
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
