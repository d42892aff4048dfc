-- post_promotion: posts p_amount bonus coins from the house's promotions account to the
-- player's bonus account, as one balanced ledger transaction of p_kind with p_reference.
-- Both accounts are locked in id order, as every poster locks them (ledger.server.ts,
-- lockAccounts); the promotions row stays locked until the caller's commit, so callers post
-- last, inside one statement (docs/decisions/109-a-spin-in-one-statement.md).
-- Answers the transaction's id, or NULL when p_reference was posted before (nothing posted:
-- a repeat changes nothing, as in postTransaction).
-- Callers: spin_wheel, claim_vip_bonus, app/models/money/ledger.server.ts (postPromotion).
CREATE OR REPLACE FUNCTION "post_promotion"(p_user UUID, p_amount BIGINT, p_kind "LedgerTransactionKind", p_reference TEXT)
RETURNS UUID LANGUAGE plpgsql AS $$
DECLARE
  bonus UUID;
  promotions UUID;
  posted UUID;
BEGIN
  INSERT INTO "ledger_accounts" ("kind", "user_id") VALUES ('user_bonus', p_user) ON CONFLICT ("user_id", "kind") DO NOTHING;
  SELECT a."id" INTO bonus FROM "ledger_accounts" a WHERE a."user_id" = p_user AND a."kind" = 'user_bonus';
  SELECT a."id" INTO promotions FROM "ledger_accounts" a WHERE a."kind" = 'promotions' AND a."user_id" IS NULL;
  PERFORM 1 FROM "ledger_accounts" a WHERE a."id" IN (bonus, promotions) ORDER BY a."id" FOR UPDATE;
  INSERT INTO "ledger_transactions" ("kind", "reference", "user_id") VALUES (p_kind, p_reference, p_user)
    ON CONFLICT ("reference") DO NOTHING RETURNING "id" INTO posted;
  IF posted IS NULL THEN
    RETURN NULL;
  END IF;
  INSERT INTO "ledger_postings" ("transaction_id", "account_id", "amount")
    VALUES (posted, promotions, -p_amount), (posted, bonus, p_amount);
  RETURN posted;
END $$;
