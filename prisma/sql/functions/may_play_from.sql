-- may_play_from: whether a player whose recorded home is p_country (and p_region) may still
-- play and buy, given the places the operator serves (ALLOWED_COUNTRIES): p_countries, whole
-- countries; p_regions, ISO 3166-2 regions ("US-NJ"), each counting only in its own country.
-- A place taken out of the configuration after the player signed up is no longer served
-- (docs/decisions/008-responsible-play.md).
--
-- Owns the place rule: nothing else states it (docs/decisions/041-libraries-for-plumbing-and-rule-owners.md).
-- Callers: enter_raffles (at entry, under its locks), and the reads of
-- app/models/session.server.ts (findSession), app/models/responsible-play.server.ts
-- (playGateOf) and app/models/admin.server.ts (playersWhoMayPlay), to which TypeScript only
-- passes the configuration (app/services/jurisdictions.ts, placesServed).
CREATE OR REPLACE FUNCTION "may_play_from"(p_country TEXT, p_region TEXT, p_countries TEXT[], p_regions TEXT[])
RETURNS BOOLEAN LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(p_country = ANY(p_countries) OR (p_region = ANY(p_regions) AND left(p_region, 2) = p_country), false)
$$;
