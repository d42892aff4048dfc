-- Cash and bonus coins (docs/decisions/017-cash-and-bonus-coins.md).
--
-- A player's "user" account now holds cash (withdrawable: money paid in, the cash part of
-- prizes and refunds) and a new "user_bonus" account the coins the house gave (play only).
-- Each raffle gets a "raffle_pot_bonus" account beside its "raffle_pot" (cash). Each ticket
-- records the cash and bonus it cost. From the function ledger_check_balanced's new version
-- on, every ledger transaction balances in cash and in bonus separately, so no movement can
-- turn bonus into cash.

-- Tickets: what each cost in cash and in bonus coins (they add up to the entry price).
ALTER TABLE "entries" ADD COLUMN "cash" BIGINT NOT NULL DEFAULT 0, ADD COLUMN "bonus" BIGINT NOT NULL DEFAULT 0;
ALTER TABLE "entries" ADD CONSTRAINT "entries_cash_and_bonus_not_negative" CHECK ("cash" >= 0 AND "bonus" >= 0);

-- The new kinds: floored at zero, owned by a player or a raffle; two pots per raffle.
ALTER TABLE "ledger_accounts" DROP CONSTRAINT "ledger_accounts_balance_not_negative";
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_balance_not_negative"
    CHECK ("kind" NOT IN ('user', 'user_bonus', 'withdrawal_hold', 'raffle_pot', 'raffle_pot_bonus') OR "balance" >= 0);
ALTER TABLE "ledger_accounts" DROP CONSTRAINT "ledger_accounts_owner";
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_owner"
    CHECK (("kind" IN ('user', 'user_bonus', 'withdrawal_hold')) = ("user_id" IS NOT NULL)
       AND ("kind" IN ('raffle_pot', 'raffle_pot_bonus')) = ("raffle_id" IS NOT NULL));
DROP INDEX "ledger_accounts_raffle_id_key";
CREATE UNIQUE INDEX "ledger_accounts_raffle_id_kind_key" ON "ledger_accounts"("raffle_id", "kind");

-- Existing balances. Nothing may become withdrawable that was not paid or won:
--   * a player keeps as cash at most what they paid for coins (payments that succeeded and
--     were not refunded or disputed) plus what they won, less what they asked to withdraw
--     (every withdrawal not rejected); the rest of their coins becomes bonus;
--   * tickets already bought are recorded as bonus (their mix is not known), and the pots
--     of raffles still running move to their bonus pots accordingly.
-- These moves are the only ledger transactions that cross from cash to bonus
-- ('reclassification'); the balance check that forbids crossing comes after them.
-- Withdrawal requests still pending were made under the old rule (their holds may be coins
-- that were never paid in): they are refused, their holds go back to the player's coins, and
-- the rule below decides what of those is cash. The player asks again.
CREATE TEMPORARY TABLE "released" ON COMMIT DROP AS
  SELECT w."id", w."user_id", w."amount", h."id" AS "hold_account",
         (SELECT a."id" FROM "ledger_accounts" a WHERE a."user_id" = w."user_id" AND a."kind" = 'user') AS "user_account"
  FROM "withdrawals" w JOIN "ledger_accounts" h ON h."user_id" = w."user_id" AND h."kind" = 'withdrawal_hold'
  WHERE w."status" = 'pending';
WITH t AS (
  INSERT INTO "ledger_transactions" ("kind", "reference", "user_id", "memo")
  SELECT 'withdrawal_release', 'withdrawal-release:' || r."id", r."user_id", 'requested before cash and bonus coins (migration 20261124010100)'
  FROM "released" r
  RETURNING "id", "reference"
)
INSERT INTO "ledger_postings" ("transaction_id", "account_id", "amount")
SELECT t."id", p."account_id", p."amount"
FROM t JOIN "released" r ON t."reference" = 'withdrawal-release:' || r."id"
CROSS JOIN LATERAL (VALUES (r."hold_account", -r."amount"), (r."user_account", r."amount")) AS p("account_id", "amount");
UPDATE "withdrawals" SET "status" = 'rejected', "decided_at" = now(),
  "reject_reason" = 'Requested before withdrawable cash and bonus coins were separated: please ask again'
WHERE "id" IN (SELECT "id" FROM "released");

INSERT INTO "ledger_accounts" ("kind", "user_id")
  SELECT 'user_bonus', "user_id" FROM "ledger_accounts" WHERE "kind" = 'user'
  ON CONFLICT ("user_id", "kind") DO NOTHING;
INSERT INTO "ledger_accounts" ("kind", "raffle_id")
  SELECT 'raffle_pot_bonus', "raffle_id" FROM "ledger_accounts" WHERE "kind" = 'raffle_pot';

UPDATE "entries" e SET "bonus" = r."entry_price" FROM "raffles" r WHERE r."id" = e."raffle_id";
ALTER TABLE "entries" ALTER COLUMN "cash" DROP DEFAULT, ALTER COLUMN "bonus" DROP DEFAULT;

CREATE TEMPORARY TABLE "reclassified" ON COMMIT DROP AS
  SELECT a."user_id", a."id" AS "from_account", b."id" AS "to_account",
         a."balance" - LEAST(a."balance", GREATEST(0,
           coalesce((SELECT sum(p."amount_cents") FROM "payments" p
                     WHERE p."user_id" = a."user_id" AND p."purpose" = 'coins' AND p."status" = 'succeeded'), 0)
         + coalesce((SELECT sum(r."prize") FROM "raffles" r WHERE r."winner_id" = a."user_id" AND r."status" = 'completed'), 0)
         - coalesce((SELECT sum(w."amount") FROM "withdrawals" w WHERE w."user_id" = a."user_id" AND w."status" <> 'rejected'), 0)
         )) AS "amount"
  FROM "ledger_accounts" a JOIN "ledger_accounts" b ON b."user_id" = a."user_id" AND b."kind" = 'user_bonus'
  WHERE a."kind" = 'user';
INSERT INTO "reclassified"
  SELECT NULL, a."id", b."id", a."balance"
  FROM "ledger_accounts" a JOIN "ledger_accounts" b ON b."raffle_id" = a."raffle_id" AND b."kind" = 'raffle_pot_bonus'
  WHERE a."kind" = 'raffle_pot' AND a."balance" > 0;
DELETE FROM "reclassified" WHERE "amount" <= 0;

WITH t AS (
  INSERT INTO "ledger_transactions" ("kind", "reference", "user_id", "memo")
  SELECT 'reclassification', 'reclassification:' || x."from_account", x."user_id",
         'coins not paid in or won become bonus coins (migration 20261124010100)'
  FROM "reclassified" x
  RETURNING "id", "reference"
)
INSERT INTO "ledger_postings" ("transaction_id", "account_id", "amount")
SELECT t."id", p."account_id", p."amount"
FROM t JOIN "reclassified" x ON t."reference" = 'reclassification:' || x."from_account"
CROSS JOIN LATERAL (VALUES (x."from_account", -x."amount"), (x."to_account", x."amount")) AS p("account_id", "amount");
