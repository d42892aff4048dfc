-- rate_limit_exceeds: whether a key's hits pass its limit by the sliding-window estimate:
-- p_count, the hits in the current fixed window (the one being judged included), plus
-- p_previous_count, the previous window's, weighted by p_overlap (how much of that window
-- still lies inside the sliding window, 0 to 1), above p_max. A burst across a window
-- boundary cannot pass twice the limit (docs/decisions/022-limits-counted-first-and-known-devices.md).
--
-- Owns that comparison: nothing else states it (docs/decisions/041-libraries-for-plumbing-and-rule-owners.md).
-- The windows and the overlap come from app/services/rate-limit.server.ts (slidingWindow).
-- Callers: enter_raffles (the entry limit, counted with the entry), and
-- app/models/rate-limit.server.ts (admit: every other limit).
CREATE OR REPLACE FUNCTION "rate_limit_exceeds"(p_count INTEGER, p_previous_count INTEGER, p_overlap DOUBLE PRECISION, p_max INTEGER)
RETURNS BOOLEAN LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT p_count + coalesce(p_previous_count, 0) * p_overlap > p_max
$$;
