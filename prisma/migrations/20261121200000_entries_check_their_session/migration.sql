-- An entry checks everything in its own transaction, in one statement per batch
-- (docs/decisions/013-reads-from-memory.md): besides the rules of migration
-- 20261121180000, the session it came with and the player's entry rate limit.
--
-- p_sessions[i], when not null, is the SHA-256 of the session token the entry came with:
-- the player is that session's user (p_users[i] is then null), and the entry is refused
-- with 'signed_out' when the session is unknown or expired or the player suspended, and
-- with 'not_onboarded' when the player has not finished signing up. Such an entry also
-- notes the session's play (as touchPlay does, at most once a minute: p_play_idle_gap is
-- the pause after which a new stretch of play begins).
--
-- p_windows[i], when not null, counts the entry against the rate limit p_limit_name
-- (key '<name>:<player id>') in the fixed window starting then; it is refused with
-- 'rate_limited' when that count plus p_previous[i]'s window's count times p_overlap[i]
-- is over p_limit_max (the sliding-window estimate of app/services/rate-limit.server.ts).
-- A refused entry still counts, as every hit does.
--
-- Locks, in the order every writer takes them: the raffles, the rate-limit buckets, then
-- the ledger accounts (each in sorted order). A session's row is locked only by its own
-- play note, after all of them.
DROP FUNCTION "enter_raffles"(UUID[], UUID[], TEXT[], INTEGER[], TIMESTAMPTZ[]);

CREATE FUNCTION "enter_raffles"(
  p_users UUID[], p_sessions TEXT[], p_raffles UUID[], p_kinds TEXT[], p_tickets INTEGER[], p_now TIMESTAMPTZ[],
  p_windows TIMESTAMPTZ[], p_previous TIMESTAMPTZ[], p_overlap DOUBLE PRECISION[],
  p_limit_name TEXT, p_limit_max INTEGER, p_play_idle_gap INTERVAL
) RETURNS TABLE (
  ord INTEGER, outcome TEXT, tier TEXT, first_position INTEGER, cost BIGINT, balance BIGINT,
  cap INTEGER, excluded_until TIMESTAMPTZ, exclusion_kind TEXT
) LANGUAGE plpgsql AS $$
DECLARE
  i INTEGER;
  player RECORD;
  raffle RECORD;
  player_account UUID;
  player_balance BIGINT;
  pot_account UUID;
  pot_balance BIGINT;
  held INTEGER;
  ledger_tx UUID;
  positions INTEGER[];
  raffle_found BOOLEAN;
  players UUID[];
  entrant RECORD;
  hits INTEGER;
  previous_hits INTEGER;
BEGIN
  -- Who each entry is for: the given player, or the user of the session it came with.
  players := ARRAY(
    SELECT coalesce(x.u, s."user_id")
    FROM unnest(p_users, p_sessions) WITH ORDINALITY AS x(u, h, n)
    LEFT JOIN "sessions" s ON s."token_hash" = x.h
    ORDER BY x.n);

  PERFORM 1 FROM "raffles" WHERE "id" = ANY(p_raffles) ORDER BY "id" FOR UPDATE;
  INSERT INTO "rate_limit_buckets" ("key", "window_start", "count")
    SELECT DISTINCT p_limit_name || ':' || x.u, x.w, 0
    FROM unnest(players, p_windows) AS x(u, w) WHERE x.u IS NOT NULL AND x.w IS NOT NULL
    ORDER BY 1, 2
    ON CONFLICT ("key", "window_start") DO NOTHING;
  PERFORM 1 FROM "rate_limit_buckets" b
    WHERE (b."key", b."window_start") IN (
      SELECT p_limit_name || ':' || x.u, x.w FROM unnest(players, p_windows) AS x(u, w) WHERE x.u IS NOT NULL AND x.w IS NOT NULL)
    ORDER BY b."key", b."window_start" FOR UPDATE;
  INSERT INTO "ledger_accounts" ("kind", "user_id")
    SELECT DISTINCT 'user'::"LedgerAccountKind", u."id" FROM "users" u WHERE u."id" = ANY(players)
    ON CONFLICT ("user_id", "kind") DO NOTHING;
  PERFORM 1 FROM "ledger_accounts"
    WHERE ("kind" = 'user' AND "user_id" = ANY(players)) OR "raffle_id" = ANY(p_raffles)
    ORDER BY "id" FOR UPDATE;

  FOR i IN 1 .. coalesce(array_length(p_users, 1), 0) LOOP
    ord := i;
    outcome := NULL; tier := NULL; first_position := NULL; cost := NULL; balance := NULL;
    cap := NULL; excluded_until := NULL; exclusion_kind := NULL;

    IF p_sessions[i] IS NOT NULL THEN
      SELECT s."id", s."user_id", s."play_seen_at", u."suspended_at",
             (u."date_of_birth" IS NULL OR u."terms_accepted_at" IS NULL OR u."country" IS NULL) AS "onboarding"
        INTO entrant
        FROM "sessions" s JOIN "users" u ON u."id" = s."user_id"
        WHERE s."token_hash" = p_sessions[i] AND s."expires_at" > p_now[i];
      IF NOT FOUND OR entrant."suspended_at" IS NOT NULL OR entrant."user_id" IS DISTINCT FROM players[i] THEN
        outcome := 'signed_out'; RETURN NEXT; CONTINUE;
      END IF;
      IF entrant."onboarding" THEN
        outcome := 'not_onboarded'; RETURN NEXT; CONTINUE;
      END IF;
      IF entrant."play_seen_at" <= p_now[i] - INTERVAL '1 minute' THEN
        UPDATE "sessions" SET
          "play_started_at" = CASE WHEN "play_seen_at" < p_now[i] - p_play_idle_gap THEN p_now[i] ELSE "play_started_at" END,
          "reality_check_at" = CASE WHEN "play_seen_at" < p_now[i] - p_play_idle_gap THEN NULL ELSE "reality_check_at" END,
          "play_seen_at" = p_now[i]
        WHERE "id" = entrant."id" AND "play_seen_at" <= p_now[i] - INTERVAL '1 minute';
      END IF;
    END IF;

    IF p_windows[i] IS NOT NULL THEN
      UPDATE "rate_limit_buckets" SET "count" = "count" + 1
        WHERE "key" = p_limit_name || ':' || players[i] AND "window_start" = p_windows[i]
        RETURNING "count" INTO hits;
      SELECT coalesce(max(b."count"), 0) INTO previous_hits FROM "rate_limit_buckets" b
        WHERE b."key" = p_limit_name || ':' || players[i] AND b."window_start" = p_previous[i];
      IF hits + previous_hits * p_overlap[i] > p_limit_max THEN
        outcome := 'rate_limited'; RETURN NEXT; CONTINUE;
      END IF;
    END IF;

    SELECT u."vip_tier", u."vip_expiry", u."excluded_until", u."exclusion_kind" INTO player
      FROM "users" u WHERE u."id" = players[i];
    IF NOT FOUND THEN
      outcome := 'user_not_found'; RETURN NEXT; CONTINUE;
    END IF;
    IF player."excluded_until" IS NOT NULL AND player."excluded_until" > p_now[i] THEN
      outcome := 'excluded'; excluded_until := player."excluded_until"; exclusion_kind := player."exclusion_kind";
      RETURN NEXT; CONTINUE;
    END IF;

    SELECT r."kind", r."tier", r."entry_price", r."starts_at", r."ends_at", r."status", r."vip_only",
           r."max_tickets_per_player", r."ticket_count"
      INTO raffle FROM "raffles" r WHERE r."id" = p_raffles[i];
    raffle_found := FOUND;
    SELECT a."id" INTO pot_account FROM "ledger_accounts" a WHERE a."raffle_id" = p_raffles[i];
    IF NOT raffle_found OR pot_account IS NULL OR (p_kinds[i] IS NOT NULL AND raffle."kind"::TEXT <> p_kinds[i]) THEN
      outcome := 'raffle_not_found'; RETURN NEXT; CONTINUE;
    END IF;
    tier := raffle."tier";
    IF raffle."status" <> 'active' OR p_now[i] >= raffle."ends_at" THEN
      outcome := 'raffle_closed'; RETURN NEXT; CONTINUE;
    END IF;
    IF p_now[i] < raffle."starts_at" THEN
      outcome := 'raffle_not_open'; RETURN NEXT; CONTINUE;
    END IF;
    IF raffle."vip_only" AND NOT (player."vip_tier" IS NOT NULL AND player."vip_expiry" IS NOT NULL AND player."vip_expiry" > p_now[i]) THEN
      outcome := 'vip_only'; RETURN NEXT; CONTINUE;
    END IF;
    SELECT count(*) INTO held FROM "entries" e WHERE e."raffle_id" = p_raffles[i] AND e."user_id" = players[i];
    IF held + p_tickets[i] > raffle."max_tickets_per_player" THEN
      outcome := 'over_ticket_cap'; cap := raffle."max_tickets_per_player"; RETURN NEXT; CONTINUE;
    END IF;
    cost := raffle."entry_price" * p_tickets[i];
    SELECT a."id", a."balance" INTO player_account, player_balance
      FROM "ledger_accounts" a WHERE a."user_id" = players[i] AND a."kind" = 'user';
    IF player_balance < cost THEN
      outcome := 'insufficient_coins'; cost := NULL; RETURN NEXT; CONTINUE;
    END IF;

    first_position := raffle."ticket_count";
    positions := ARRAY(SELECT generate_series(first_position, first_position + p_tickets[i] - 1));
    -- The reference names the purchase's first ticket row: positions alone may repeat,
    -- because a break's refund closes the gaps its tickets leave.
    WITH tickets AS (
      INSERT INTO "entries" ("raffle_id", "user_id", "position")
      SELECT p_raffles[i], players[i], p FROM unnest(positions) AS p
      RETURNING "id", "position"
    )
    INSERT INTO "ledger_transactions" ("kind", "reference", "user_id", "raffle_id")
    SELECT 'entry', 'entry:' || p_raffles[i] || ':' || t."id", players[i], p_raffles[i]
      FROM tickets t ORDER BY t."position" LIMIT 1
    RETURNING "id" INTO ledger_tx;
    INSERT INTO "ledger_postings" ("transaction_id", "account_id", "amount")
      VALUES (ledger_tx, player_account, -cost), (ledger_tx, pot_account, cost);
    UPDATE "raffles" SET "ticket_count" = "ticket_count" + p_tickets[i],
                         "player_count" = "player_count" + (CASE WHEN held = 0 THEN 1 ELSE 0 END)
      WHERE "id" = p_raffles[i]
      RETURNING "ticket_count", "player_count" INTO raffle."ticket_count", held;
    SELECT a."balance" INTO pot_balance FROM "ledger_accounts" a WHERE a."id" = pot_account;
    SELECT a."balance" INTO balance FROM "ledger_accounts" a WHERE a."id" = player_account;
    -- The same event as app/services/events.server.ts publishes, sent at commit.
    PERFORM pg_notify('raffle_events', json_build_object(
      'type', 'pot', 'raffleId', p_raffles[i], 'kind', raffle."kind",
      'currentPot', (pot_balance / 100)::TEXT || '.' || lpad((pot_balance % 100)::TEXT, 2, '0'),
      'participantCount', held, 'ticketCount', raffle."ticket_count")::TEXT);
    INSERT INTO "audit_events" ("actor", "action", "target", "details")
      VALUES (players[i]::TEXT, 'raffle.enter', 'raffle:' || p_raffles[i],
              jsonb_build_object('tickets', p_tickets[i], 'cost', cost::TEXT, 'positions', to_jsonb(positions)));
    outcome := 'ok';
    RETURN NEXT;
  END LOOP;
END $$;
