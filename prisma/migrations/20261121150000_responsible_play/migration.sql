-- AlterTable
ALTER TABLE "users" ADD COLUMN "excluded_until" TIMESTAMPTZ(3),
ADD COLUMN "exclusion_kind" TEXT,
ADD CONSTRAINT "users_exclusion_kind" CHECK ("exclusion_kind" IS NULL OR "exclusion_kind" IN ('break', 'self_exclusion'));

-- CreateTable
CREATE TABLE "deposit_limits" (
    "user_id" UUID NOT NULL,
    "period" TEXT NOT NULL,
    "amount_cents" INTEGER,
    "pending_amount_cents" INTEGER,
    "pending_removal" BOOLEAN NOT NULL DEFAULT false,
    "pending_from" TIMESTAMPTZ(3),
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "deposit_limits_pkey" PRIMARY KEY ("user_id","period"),
    CONSTRAINT "deposit_limits_period" CHECK ("period" IN ('day', 'week', 'month')),
    CONSTRAINT "deposit_limits_positive" CHECK (("amount_cents" IS NULL OR "amount_cents" > 0) AND ("pending_amount_cents" IS NULL OR "pending_amount_cents" > 0))
);

-- AddForeignKey
ALTER TABLE "deposit_limits" ADD CONSTRAINT "deposit_limits_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
