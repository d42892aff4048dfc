-- spin_wheel: the daily spin, whole, in one statement: under the player's lock, the gate
-- (lock_player_gate: a break or self-exclusion running, a place no longer served), the 24
-- hours since the last spin, then the spin, its audit event and its reward posted from the
-- house's promotions account to the player's bonus coins (post_promotion). Every spin of
-- every player locks that one account's row until commit: here that is the statement's own
-- few milliseconds, not the round trips of a transaction driven from the app
-- (docs/decisions/109-a-spin-in-one-statement.md).
-- The reward is drawn by the app (node:crypto) with the VIP tier it read; p_vip_tier and
-- p_vip_expiry are that read, and a player whose membership changed since is 'changed' (the
-- app reads and draws again).
-- Answers one row: outcome 'spun', 'user_not_found', 'excluded' (with the exclusion's end
-- and kind), 'jurisdiction', 'spin_not_ready' (with the last spin's time) or 'changed'.
-- Callers: app/models/rewards/daily-reward.server.ts (spinIn).
CREATE OR REPLACE FUNCTION "spin_wheel"(
  p_user UUID, p_reward BIGINT, p_now TIMESTAMPTZ, p_interval INTERVAL,
  p_countries TEXT[], p_regions TEXT[], p_vip_tier TEXT, p_vip_expiry TIMESTAMPTZ
) RETURNS TABLE ("outcome" TEXT, "at" TIMESTAMPTZ, "exclusionKind" TEXT)
LANGUAGE plpgsql AS $$
DECLARE
  gate RECORD;
  last_spin TIMESTAMPTZ;
  spin UUID;
BEGIN
  SELECT * INTO gate FROM lock_player_gate(p_user, p_now, p_countries, p_regions, p_vip_tier, p_vip_expiry);
  IF gate."refusal" IS NOT NULL THEN
    RETURN QUERY SELECT gate."refusal", gate."at", gate."exclusionKind";
    RETURN;
  END IF;
  SELECT max(s."spun_at") INTO last_spin FROM "daily_spins" s WHERE s."user_id" = p_user;
  IF last_spin IS NOT NULL AND p_now - last_spin < p_interval THEN
    RETURN QUERY SELECT 'spin_not_ready', last_spin, NULL::TEXT;
    RETURN;
  END IF;

  INSERT INTO "daily_spins" ("user_id", "reward", "spun_at") VALUES (p_user, p_reward, p_now) RETURNING "id" INTO spin;
  INSERT INTO "audit_events" ("actor", "action", "target", "details")
    VALUES (p_user::TEXT, 'spin', 'user:' || p_user, jsonb_build_object('reward', p_reward::TEXT));
  IF p_reward > 0 THEN
    PERFORM post_promotion(p_user, p_reward, 'spin_reward', 'spin:' || spin);
  END IF;
  RETURN QUERY SELECT 'spun', p_now, NULL::TEXT;
END $$;
