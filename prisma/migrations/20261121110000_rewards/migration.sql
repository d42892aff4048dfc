-- CreateTable
CREATE TABLE "daily_spins" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "user_id" UUID NOT NULL,
    "reward" BIGINT NOT NULL,
    "spun_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "daily_spins_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "daily_spins_reward_positive" CHECK ("reward" > 0)
);

-- CreateTable
CREATE TABLE "vip_daily_claims" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "user_id" UUID NOT NULL,
    "day" DATE NOT NULL,
    "tier" "VipTier" NOT NULL,
    "amount" BIGINT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "vip_daily_claims_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "vip_daily_claims_amount_positive" CHECK ("amount" > 0)
);

-- CreateTable
CREATE TABLE "vip_subscriptions" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "user_id" UUID NOT NULL,
    "tier" "VipTier" NOT NULL,
    "starts_at" TIMESTAMPTZ(3) NOT NULL,
    "ends_at" TIMESTAMPTZ(3) NOT NULL,
    "payment_reference" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "vip_subscriptions_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "vip_subscriptions_period" CHECK ("ends_at" > "starts_at")
);

-- CreateIndex
CREATE INDEX "daily_spins_user_id_spun_at_idx" ON "daily_spins"("user_id", "spun_at");

-- CreateIndex
CREATE UNIQUE INDEX "vip_daily_claims_user_id_day_key" ON "vip_daily_claims"("user_id", "day");

-- CreateIndex
CREATE UNIQUE INDEX "vip_subscriptions_payment_reference_key" ON "vip_subscriptions"("payment_reference");

-- CreateIndex
CREATE INDEX "vip_subscriptions_user_id_idx" ON "vip_subscriptions"("user_id");

-- AddForeignKey
ALTER TABLE "daily_spins" ADD CONSTRAINT "daily_spins_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "vip_daily_claims" ADD CONSTRAINT "vip_daily_claims_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "vip_subscriptions" ADD CONSTRAINT "vip_subscriptions_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
