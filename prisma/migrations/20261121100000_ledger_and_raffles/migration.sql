-- Balances move to the ledger: a user's coins are the balance of their "user" account.
ALTER TABLE "users" DROP CONSTRAINT "users_coin_balance_not_negative";
ALTER TABLE "users" DROP COLUMN "coin_balance";

-- CreateEnum
CREATE TYPE "LedgerAccountKind" AS ENUM ('user', 'withdrawal_hold', 'raffle_pot', 'house_rake', 'promotions', 'card_deposits', 'payouts');

-- CreateEnum
CREATE TYPE "LedgerTransactionKind" AS ENUM ('deposit', 'entry', 'prize', 'rake', 'refund', 'bonus', 'spin_reward', 'withdrawal_hold', 'withdrawal_release', 'payout', 'reversal');

-- CreateEnum
CREATE TYPE "RaffleStatus" AS ENUM ('active', 'completed', 'cancelled');

-- CreateTable
CREATE TABLE "ledger_accounts" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "kind" "LedgerAccountKind" NOT NULL,
    "user_id" UUID,
    "raffle_id" UUID,
    "balance" BIGINT NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ledger_accounts_pkey" PRIMARY KEY ("id"),
    -- Players' coins, held withdrawals and pots can never go below zero.
    CONSTRAINT "ledger_accounts_balance_not_negative"
        CHECK ("kind" NOT IN ('user', 'withdrawal_hold', 'raffle_pot') OR "balance" >= 0),
    CONSTRAINT "ledger_accounts_owner"
        CHECK (("kind" IN ('user', 'withdrawal_hold')) = ("user_id" IS NOT NULL)
           AND ("kind" = 'raffle_pot') = ("raffle_id" IS NOT NULL))
);

-- CreateTable
CREATE TABLE "ledger_transactions" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "kind" "LedgerTransactionKind" NOT NULL,
    "reference" TEXT NOT NULL,
    "user_id" UUID,
    "raffle_id" UUID,
    "memo" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ledger_transactions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ledger_postings" (
    "id" BIGSERIAL NOT NULL,
    "transaction_id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "amount" BIGINT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ledger_postings_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "ledger_postings_amount_not_zero" CHECK ("amount" <> 0)
);

-- CreateTable
CREATE TABLE "audit_events" (
    "id" BIGSERIAL NOT NULL,
    "actor" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "target" TEXT,
    "details" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "audit_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "raffles" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "schedule_id" UUID,
    "slot" INTEGER NOT NULL DEFAULT 0,
    "kind" "RaffleKind" NOT NULL,
    "tier" TEXT NOT NULL,
    "entry_price" BIGINT NOT NULL,
    "starts_at" TIMESTAMPTZ(3) NOT NULL,
    "ends_at" TIMESTAMPTZ(3) NOT NULL,
    "status" "RaffleStatus" NOT NULL DEFAULT 'active',
    "vip_only" BOOLEAN NOT NULL DEFAULT false,
    "max_tickets_per_player" INTEGER NOT NULL DEFAULT 10,
    "ticket_count" INTEGER NOT NULL DEFAULT 0,
    "player_count" INTEGER NOT NULL DEFAULT 0,
    "seed_hash" TEXT NOT NULL,
    "seed" TEXT NOT NULL,
    "merkle_root" TEXT,
    "winning_ticket" INTEGER,
    "winner_id" UUID,
    "final_pot" BIGINT,
    "prize" BIGINT,
    "rake" BIGINT,
    "drawn_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "raffles_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "raffles_entry_price_positive" CHECK ("entry_price" > 0),
    CONSTRAINT "raffles_ends_after_start" CHECK ("ends_at" > "starts_at"),
    CONSTRAINT "raffles_counts_not_negative" CHECK ("ticket_count" >= 0 AND "player_count" >= 0 AND "player_count" <= "ticket_count"),
    CONSTRAINT "raffles_cap_positive" CHECK ("max_tickets_per_player" > 0),
    CONSTRAINT "raffles_completed_has_winner"
        CHECK ("status" <> 'completed' OR ("winner_id" IS NOT NULL AND "winning_ticket" IS NOT NULL AND "prize" IS NOT NULL AND "rake" IS NOT NULL AND "prize" + "rake" = "final_pot"))
);

-- CreateTable
CREATE TABLE "entries" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "raffle_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "position" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "entries_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "entries_position_not_negative" CHECK ("position" >= 0)
);

-- CreateIndex
CREATE UNIQUE INDEX "ledger_accounts_raffle_id_key" ON "ledger_accounts"("raffle_id");

-- CreateIndex
CREATE INDEX "ledger_accounts_kind_idx" ON "ledger_accounts"("kind");

-- CreateIndex
CREATE UNIQUE INDEX "ledger_accounts_user_id_kind_key" ON "ledger_accounts"("user_id", "kind");

-- CreateIndex
CREATE UNIQUE INDEX "ledger_transactions_reference_key" ON "ledger_transactions"("reference");

-- CreateIndex
CREATE INDEX "ledger_transactions_user_id_created_at_idx" ON "ledger_transactions"("user_id", "created_at");

-- CreateIndex
CREATE INDEX "ledger_transactions_raffle_id_idx" ON "ledger_transactions"("raffle_id");

-- CreateIndex
CREATE INDEX "ledger_postings_transaction_id_idx" ON "ledger_postings"("transaction_id");

-- CreateIndex
CREATE INDEX "ledger_postings_account_id_idx" ON "ledger_postings"("account_id");

-- CreateIndex
CREATE INDEX "audit_events_target_idx" ON "audit_events"("target");

-- CreateIndex
CREATE INDEX "audit_events_created_at_idx" ON "audit_events"("created_at");

-- CreateIndex
CREATE INDEX "raffles_status_ends_at_idx" ON "raffles"("status", "ends_at");

-- CreateIndex
CREATE INDEX "raffles_kind_status_idx" ON "raffles"("kind", "status");

-- CreateIndex
CREATE INDEX "raffles_drawn_at_idx" ON "raffles"("drawn_at");

-- CreateIndex
CREATE UNIQUE INDEX "raffles_schedule_id_slot_starts_at_key" ON "raffles"("schedule_id", "slot", "starts_at");

-- CreateIndex
CREATE UNIQUE INDEX "entries_raffle_id_position_key" ON "entries"("raffle_id", "position");

-- CreateIndex
CREATE INDEX "entries_raffle_id_user_id_idx" ON "entries"("raffle_id", "user_id");

-- CreateIndex
CREATE INDEX "entries_user_id_created_at_idx" ON "entries"("user_id", "created_at");

-- AddForeignKey
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_raffle_id_fkey" FOREIGN KEY ("raffle_id") REFERENCES "raffles"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ledger_postings" ADD CONSTRAINT "ledger_postings_transaction_id_fkey" FOREIGN KEY ("transaction_id") REFERENCES "ledger_transactions"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ledger_postings" ADD CONSTRAINT "ledger_postings_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "ledger_accounts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "raffles" ADD CONSTRAINT "raffles_schedule_id_fkey" FOREIGN KEY ("schedule_id") REFERENCES "raffle_schedules"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "raffles" ADD CONSTRAINT "raffles_winner_id_fkey" FOREIGN KEY ("winner_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "entries" ADD CONSTRAINT "entries_raffle_id_fkey" FOREIGN KEY ("raffle_id") REFERENCES "raffles"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "entries" ADD CONSTRAINT "entries_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Ledger invariants, enforced by the database itself (docs/decisions/004-ledger.md).

-- A posting moves its account's balance, in the same transaction.
CREATE FUNCTION "ledger_apply_posting"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "ledger_accounts" SET "balance" = "balance" + NEW."amount" WHERE "id" = NEW."account_id";
  RETURN NEW;
END $$;
CREATE TRIGGER "ledger_postings_apply" AFTER INSERT ON "ledger_postings"
  FOR EACH ROW EXECUTE FUNCTION "ledger_apply_posting"();

-- At commit, every transaction has at least two postings and they sum to zero.
CREATE FUNCTION "ledger_check_balanced"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  tx UUID;
  total NUMERIC;
  postings INTEGER;
BEGIN
  IF TG_TABLE_NAME = 'ledger_postings' THEN
    tx := NEW."transaction_id";
  ELSE
    tx := NEW."id";
  END IF;
  SELECT coalesce(sum("amount"), 0), count(*) INTO total, postings FROM "ledger_postings" WHERE "transaction_id" = tx;
  IF total <> 0 OR postings < 2 THEN
    RAISE EXCEPTION 'ledger transaction % is unbalanced (sum %, % postings)', tx, total, postings
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NULL;
END $$;
CREATE CONSTRAINT TRIGGER "ledger_postings_balanced" AFTER INSERT ON "ledger_postings"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "ledger_check_balanced"();
CREATE CONSTRAINT TRIGGER "ledger_transactions_balanced" AFTER INSERT ON "ledger_transactions"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "ledger_check_balanced"();

-- The ledger and the audit log are append-only.
CREATE FUNCTION "forbid_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is append-only', TG_TABLE_NAME USING ERRCODE = 'insufficient_privilege';
END $$;
CREATE TRIGGER "ledger_postings_append_only" BEFORE UPDATE OR DELETE ON "ledger_postings"
  FOR EACH ROW EXECUTE FUNCTION "forbid_change"();
CREATE TRIGGER "ledger_postings_no_truncate" BEFORE TRUNCATE ON "ledger_postings"
  FOR EACH STATEMENT EXECUTE FUNCTION "forbid_change"();
CREATE TRIGGER "ledger_transactions_append_only" BEFORE UPDATE OR DELETE ON "ledger_transactions"
  FOR EACH ROW EXECUTE FUNCTION "forbid_change"();
CREATE TRIGGER "ledger_transactions_no_truncate" BEFORE TRUNCATE ON "ledger_transactions"
  FOR EACH STATEMENT EXECUTE FUNCTION "forbid_change"();
CREATE TRIGGER "audit_events_append_only" BEFORE UPDATE OR DELETE ON "audit_events"
  FOR EACH ROW EXECUTE FUNCTION "forbid_change"();
CREATE TRIGGER "audit_events_no_truncate" BEFORE TRUNCATE ON "audit_events"
  FOR EACH STATEMENT EXECUTE FUNCTION "forbid_change"();

-- The house's singleton accounts.
INSERT INTO "ledger_accounts" ("kind") VALUES ('house_rake'), ('promotions'), ('card_deposits'), ('payouts');
CREATE UNIQUE INDEX "ledger_accounts_singleton_kind" ON "ledger_accounts"("kind")
  WHERE "kind" IN ('house_rake', 'promotions', 'card_deposits', 'payouts');
