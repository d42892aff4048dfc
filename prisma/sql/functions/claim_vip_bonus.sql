-- claim_vip_bonus: a VIP's daily bonus, whole, in one statement, as spin_wheel is the spin:
-- under the player's lock, the gate (lock_player_gate), the membership active at p_now, one
-- claim a UTC day (vip_daily_claims' unique day), the claim, its audit event and its coins
-- posted from the house's promotions account (post_promotion), whose row stays locked for
-- this statement only (docs/decisions/109-a-spin-in-one-statement.md).
-- p_amount is the tier's daily coins (app/shared/vip.ts) for the membership the app read,
-- p_vip_tier and p_vip_expiry; a membership changed since is 'changed' (the app reads again).
-- Answers one row: outcome 'claimed', 'user_not_found', 'excluded' (with the exclusion's
-- end and kind), 'jurisdiction', 'not_vip', 'already_claimed' or 'changed'.
-- Callers: app/models/rewards/daily-reward.server.ts (claimVipIn).
CREATE OR REPLACE FUNCTION "claim_vip_bonus"(
  p_user UUID, p_day DATE, p_now TIMESTAMPTZ, p_countries TEXT[], p_regions TEXT[],
  p_vip_tier TEXT, p_vip_expiry TIMESTAMPTZ, p_amount BIGINT
) RETURNS TABLE ("outcome" TEXT, "at" TIMESTAMPTZ, "exclusionKind" TEXT)
LANGUAGE plpgsql AS $$
DECLARE
  gate RECORD;
BEGIN
  SELECT * INTO gate FROM lock_player_gate(p_user, p_now, p_countries, p_regions, p_vip_tier, p_vip_expiry);
  IF gate."refusal" IS NOT NULL THEN
    RETURN QUERY SELECT gate."refusal", gate."at", gate."exclusionKind";
    RETURN;
  END IF;
  -- The gate held the membership to p_vip_tier and p_vip_expiry.
  IF p_vip_tier IS NULL OR p_vip_expiry IS NULL OR p_vip_expiry <= p_now THEN
    RETURN QUERY SELECT 'not_vip', NULL::TIMESTAMPTZ, NULL::TEXT;
    RETURN;
  END IF;
  INSERT INTO "vip_daily_claims" ("user_id", "day", "tier", "amount")
    VALUES (p_user, p_day, p_vip_tier::"VipTier", p_amount) ON CONFLICT ("user_id", "day") DO NOTHING;
  IF NOT FOUND THEN
    RETURN QUERY SELECT 'already_claimed', NULL::TIMESTAMPTZ, NULL::TEXT;
    RETURN;
  END IF;
  INSERT INTO "audit_events" ("actor", "action", "target", "details")
    VALUES (p_user::TEXT, 'vip.daily_bonus', 'user:' || p_user,
            jsonb_build_object('tier', p_vip_tier, 'amount', p_amount::TEXT));
  PERFORM post_promotion(p_user, p_amount, 'bonus', 'vip-daily:' || p_user || ':' || to_char(p_day, 'YYYY-MM-DD'));
  RETURN QUERY SELECT 'claimed', p_now, NULL::TEXT;
END $$;
