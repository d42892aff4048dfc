-- lock_player_gate: locks the player's row (FOR NO KEY UPDATE, until the caller's commit) and
-- says whether the gift may go ahead: 'user_not_found', 'excluded' (a break or self-exclusion
-- running, with its end and kind), 'jurisdiction' (their place is no longer served), 'changed'
-- (the VIP membership differs from p_vip_tier and p_vip_expiry, what the app read), or NULL.
-- The one-player gate of the house's gifts; entries gate a whole batch of players at once
-- inside enter_raffles.
-- Callers: spin_wheel, claim_vip_bonus.
CREATE OR REPLACE FUNCTION "lock_player_gate"(
  p_user UUID, p_now TIMESTAMPTZ, p_countries TEXT[], p_regions TEXT[], p_vip_tier TEXT, p_vip_expiry TIMESTAMPTZ
) RETURNS TABLE ("refusal" TEXT, "at" TIMESTAMPTZ, "exclusionKind" TEXT)
LANGUAGE plpgsql AS $$
DECLARE
  player RECORD;
BEGIN
  SELECT u."excluded_until", u."exclusion_kind"::TEXT AS "kind", u."vip_tier"::TEXT AS "tier", u."vip_expiry",
         may_play_from(u."country", u."region", p_countries, p_regions) AS "may_play"
    INTO player FROM "users" u WHERE u."id" = p_user FOR NO KEY UPDATE;
  IF NOT FOUND THEN
    RETURN QUERY SELECT 'user_not_found', NULL::TIMESTAMPTZ, NULL::TEXT;
  ELSIF player."excluded_until" > p_now THEN
    RETURN QUERY SELECT 'excluded', player."excluded_until", player."kind";
  ELSIF NOT player."may_play" THEN
    RETURN QUERY SELECT 'jurisdiction', NULL::TIMESTAMPTZ, NULL::TEXT;
  ELSIF player."tier" IS DISTINCT FROM p_vip_tier OR player."vip_expiry" IS DISTINCT FROM p_vip_expiry THEN
    RETURN QUERY SELECT 'changed', NULL::TIMESTAMPTZ, NULL::TEXT;
  ELSE
    RETURN QUERY SELECT NULL::TEXT, NULL::TIMESTAMPTZ, NULL::TEXT;
  END IF;
END $$;
