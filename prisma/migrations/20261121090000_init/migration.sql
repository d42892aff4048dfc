-- CreateEnum
CREATE TYPE "VipTier" AS ENUM ('bronze', 'silver', 'gold', 'platinum', 'diamond');

-- CreateEnum
CREATE TYPE "RaffleKind" AS ENUM ('regular', 'quick');

-- CreateTable
CREATE TABLE "users" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "email" TEXT NOT NULL,
    "username" TEXT,
    "username_key" TEXT,
    "first_name" TEXT,
    "password_hash" TEXT,
    "date_of_birth" DATE,
    "coin_balance" BIGINT NOT NULL DEFAULT 0,
    "total_winnings" BIGINT NOT NULL DEFAULT 0,
    "vip_tier" "VipTier",
    "vip_expiry" TIMESTAMPTZ(3),
    "is_admin" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "users_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "users_coin_balance_not_negative" CHECK ("coin_balance" >= 0),
    CONSTRAINT "users_email_lower_case" CHECK ("email" = lower("email"))
);

-- CreateTable
CREATE TABLE "raffle_schedules" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "slug" TEXT NOT NULL,
    "kind" "RaffleKind" NOT NULL,
    "tier" TEXT NOT NULL,
    "entry_price" BIGINT NOT NULL,
    "duration_seconds" INTEGER NOT NULL,
    "concurrent" INTEGER NOT NULL DEFAULT 1,
    "vip_only" BOOLEAN NOT NULL DEFAULT false,
    "max_tickets_per_player" INTEGER NOT NULL DEFAULT 10,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "raffle_schedules_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "raffle_schedules_entry_price_positive" CHECK ("entry_price" > 0),
    CONSTRAINT "raffle_schedules_duration_positive" CHECK ("duration_seconds" > 0),
    CONSTRAINT "raffle_schedules_concurrent_positive" CHECK ("concurrent" > 0),
    CONSTRAINT "raffle_schedules_cap_positive" CHECK ("max_tickets_per_player" > 0)
);

-- CreateIndex
CREATE UNIQUE INDEX "users_email_key" ON "users"("email");

-- CreateIndex
CREATE UNIQUE INDEX "users_username_key_key" ON "users"("username_key");

-- CreateIndex
CREATE UNIQUE INDEX "raffle_schedules_slug_key" ON "raffle_schedules"("slug");

-- CreateIndex
CREATE INDEX "raffle_schedules_kind_enabled_idx" ON "raffle_schedules"("kind", "enabled");
