-- enter_raffles: a batch of raffle entries, decided in turn against running figures and
-- then written at once (one INSERT each of tickets, ledger transactions, postings and audit
-- rows, one UPDATE of the raffles and of the rate-limit buckets, one pot notification per
-- raffle and one naming the entrants). Called by app/models/raffle.server.ts (enterRaffles)
-- for the batches that app/services/entry-queue.server.ts gathers. Why: docs/decisions/009, 013 and 014.
--
-- Owns these rules of an entry (no TypeScript restates them):
--   * the session: p_sessions[i], when not null, is the SHA-256 of the session token the
--     entry came with; the player is that session's user (p_users[i] is then null).
--     Unknown or expired session, or a suspended player: 'signed_out'; sign-up not
--     finished: 'not_onboarded'; no username chosen yet (the spec: a player chooses one
--     before playing): 'no_username'. Such an entry also notes the session's play, at most once
--     a minute (p_play_idle_gap: the pause after which a new stretch of play begins).
--   * the rate limit: p_windows[i], when not null, counts the entry against p_limit_name
--     (key '<name>:<player id>') in the fixed window starting then; over p_limit_max by
--     rate_limit_exceeds (that count, p_previous[i]'s window's count and p_overlap[i], the
--     windows of app/services/rate-limit.server.ts): 'rate_limited'. A refused entry still
--     counts, as every hit does.
--   * staff do not play (PRODUCT.md): an admin account's entry is 'staff';
--   * a break or self-exclusion: 'excluded' (with its end and kind);
--   * the player's place: may_play_from(their country, region, p_countries, p_regions), the
--     one statement of that rule: 'jurisdiction' (docs/decisions/008-responsible-play.md);
--   * identity first where the law asks for it: a player from one of p_verify_countries
--     whose identity is not verified: 'identity_required' (ADR 080; TypeScript passes the
--     countries of JURISDICTION_RULES, as it passes the places served);
--   * the raffle: unknown or of another kind 'raffle_not_found', ended or closed early 'raffle_closed', not
--     started 'raffle_not_open', VIP-only without an active membership 'vip_only', over the
--     per-player ticket cap 'over_ticket_cap', more than the player's coins (cash and
--     bonus together) 'insufficient_coins';
--   * what an entry spends: bonus coins first, then cash; each ticket records the cash and
--     bonus it cost (the entry's first tickets take the bonus), and the coins go to the
--     raffle's pot of the same currency (docs/decisions/017-cash-and-bonus-coins.md);
--   * a receipt email per ticket when the player turned on "Email receipts" (ADR 079).
--
-- Locks, in the order every writer takes them: the raffles, the rate-limit buckets, then
-- the ledger accounts (each in sorted order). A session's row is locked only by its own
-- play note, after all of them. A raffle that no entry of the batch reaches before its end is
-- not locked at all, nor its pots: its entries are refused as closed.
--
-- Its statements keep one generic plan a connection (plan_cache_mode): left to choose,
-- PostgreSQL planned most of them again at every call, a third of an entry's time (ADR 112).
CREATE OR REPLACE FUNCTION "enter_raffles"(
  p_users UUID[], p_sessions TEXT[], p_raffles UUID[], p_kinds TEXT[], p_tickets INTEGER[], p_now TIMESTAMPTZ[],
  p_windows TIMESTAMPTZ[], p_previous TIMESTAMPTZ[], p_overlap DOUBLE PRECISION[],
  p_limit_name TEXT, p_limit_max INTEGER, p_play_idle_gap INTERVAL,
  p_countries TEXT[], p_regions TEXT[], p_verify_countries TEXT[]
) RETURNS TABLE (
  ord INTEGER, outcome TEXT, tier TEXT, first_position INTEGER, cost BIGINT, balance BIGINT,
  cap INTEGER, excluded_until TIMESTAMPTZ, exclusion_kind TEXT,
  cash_balance BIGINT, bonus_balance BIGINT, tickets_held INTEGER,
  raffle_kind TEXT, raffle_pot BIGINT, raffle_tickets INTEGER, raffle_players INTEGER, entrant_id UUID
) LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  i INTEGER;
  r INTEGER;
  u INTEGER;
  k INTEGER;
  players UUID[];
  -- The batch's raffles that some entry reaches before their end: only these are locked.
  live UUID[];
  entrant RECORD;
  b INTEGER;
  bp INTEGER;
  -- The rate-limit buckets the batch counts in or reads (index b), as the batch counts.
  bk_ids TEXT[];
  bk_keys TEXT[];
  bk_windows TIMESTAMPTZ[];
  bk_counts INTEGER[];
  bk_changed BOOLEAN[];
  -- The batch's raffles (index r), as locked, then as the batch changes them.
  r_ids UUID[];
  r_kind TEXT[];
  r_tier TEXT[];
  r_price BIGINT[];
  r_starts TIMESTAMPTZ[];
  r_ends TIMESTAMPTZ[];
  r_status TEXT[];
  r_closed TIMESTAMPTZ[];
  r_vip BOOLEAN[];
  r_cap INTEGER[];
  r_tickets INTEGER[];
  r_players INTEGER[];
  r_pot_account UUID[];
  r_pot_bonus_account UUID[];
  r_pot BIGINT[];
  r_changed BOOLEAN[];
  -- The batch's players (index u) who exist, with their coins as the batch spends them.
  u_ids UUID[];
  u_vip_tier TEXT[];
  u_vip_expiry TIMESTAMPTZ[];
  u_excluded_until TIMESTAMPTZ[];
  u_is_admin BOOLEAN[];
  u_exclusion_kind TEXT[];
  u_allowed BOOLEAN[];
  u_identity_ok BOOLEAN[];
  u_account UUID[];
  u_bonus_account UUID[];
  u_cash BIGINT[];
  u_bonus BIGINT[];
  u_receipts BOOLEAN[];
  -- Whether an accepted entry's player asked for receipt emails.
  receipts BOOLEAN := false;
  spent_bonus BIGINT;
  -- Tickets each player holds in each raffle (index k; key '<player>:<raffle>').
  pair_keys TEXT[];
  pair_held INTEGER[];
  -- The accepted entries, written after the loop.
  a_ord INTEGER[] := '{}';
  a_user UUID[] := '{}';
  a_raffle UUID[] := '{}';
  a_first INTEGER[] := '{}';
  a_tickets INTEGER[] := '{}';
  a_cost BIGINT[] := '{}';
  a_bonus BIGINT[] := '{}';
  a_user_account UUID[] := '{}';
  a_user_bonus_account UUID[] := '{}';
  a_pot_account UUID[] := '{}';
  a_pot_bonus_account UUID[] := '{}';
BEGIN
  -- Who each entry is for: the given player, or the user of the session it came with.
  players := ARRAY(
    SELECT coalesce(x.u, s."user_id")
    FROM unnest(p_users, p_sessions) WITH ORDINALITY AS x(u, h, n)
    LEFT JOIN "sessions" s ON s."token_hash" = x.h
    ORDER BY x.n);

  -- A raffle past its end for every entry of the batch takes none of them (refused below as
  -- closed): it is not locked, so the batch does not wait for its draw, which holds it, and
  -- the entries queued behind the batch do not wait either (issue 36). Its end only ever moves
  -- earlier (closing early), so what this unlocked read finds ended stays ended.
  live := ARRAY(SELECT DISTINCT x."id" FROM "raffles" x JOIN unnest(p_raffles, p_now) AS e(r, t) ON e.r = x."id" WHERE e.t < x."ends_at");

  -- Locks, in the order every writer takes them (as before).
  PERFORM 1 FROM "raffles" WHERE "id" = ANY(live) ORDER BY "id" FOR UPDATE;
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
    SELECT DISTINCT k.kind, u."id" FROM "users" u, (VALUES ('user'::"LedgerAccountKind"), ('user_bonus')) AS k(kind)
    WHERE u."id" = ANY(players)
    ON CONFLICT ("user_id", "kind") DO NOTHING;
  PERFORM 1 FROM "ledger_accounts"
    WHERE ("kind" IN ('user', 'user_bonus') AND "user_id" = ANY(players)) OR "raffle_id" = ANY(live)
    ORDER BY "id" FOR UPDATE;

  -- What the loop reads, read once under those locks.
  SELECT array_agg(w.k || '@' || w.w::TEXT), array_agg(w.k), array_agg(w.w), array_agg(coalesce(x."count", 0)), array_agg(false)
    INTO bk_ids, bk_keys, bk_windows, bk_counts, bk_changed
    FROM (
      SELECT DISTINCT p_limit_name || ':' || q.u AS k, q.w
      FROM unnest(players, p_windows, p_previous) AS t(u, cw, pw), LATERAL (VALUES (t.u, t.cw), (t.u, t.pw)) AS q(u, w)
      WHERE t.u IS NOT NULL AND t.cw IS NOT NULL AND q.w IS NOT NULL
    ) w
    LEFT JOIN "rate_limit_buckets" x ON x."key" = w.k AND x."window_start" = w.w;
  SELECT array_agg(x."id"), array_agg(x."kind"::TEXT), array_agg(x."tier"), array_agg(x."entry_price"),
         array_agg(x."starts_at"), array_agg(x."ends_at"), array_agg(x."status"::TEXT), array_agg(x."closed_at"), array_agg(x."vip_only"),
         array_agg(x."max_tickets_per_player"), array_agg(x."ticket_count"), array_agg(x."player_count"),
         array_agg(a."id"), array_agg(b."id"), array_agg(a."balance" + b."balance"), array_agg(false)
    INTO r_ids, r_kind, r_tier, r_price, r_starts, r_ends, r_status, r_closed, r_vip, r_cap, r_tickets, r_players,
         r_pot_account, r_pot_bonus_account, r_pot, r_changed
    FROM "raffles" x
    -- Each account by its unique index, whatever the planner's statistics say: a join planned
    -- on stale ones scanned every account once per account (issue 36).
    LEFT JOIN LATERAL (SELECT l."id", l."balance" FROM "ledger_accounts" l WHERE l."raffle_id" = x."id" AND l."kind" = 'raffle_pot' LIMIT 1) a ON true
    LEFT JOIN LATERAL (SELECT l."id", l."balance" FROM "ledger_accounts" l WHERE l."raffle_id" = x."id" AND l."kind" = 'raffle_pot_bonus' LIMIT 1) b ON true
    WHERE x."id" = ANY(p_raffles);
  SELECT array_agg(x."id"),
         array_agg(x."vip_tier"::TEXT), array_agg(x."vip_expiry"),
         array_agg(x."excluded_until"), array_agg(x."exclusion_kind"::TEXT), array_agg(x."is_admin"),
         array_agg(may_play_from(x."country", x."region", p_countries, p_regions)),
         array_agg(x."identity_verified_at" IS NOT NULL OR x."country" IS NULL OR NOT (x."country" = ANY(p_verify_countries))),
         array_agg(a."id"), array_agg(b."id"), array_agg(a."balance"), array_agg(b."balance"), array_agg(x."email_entry_receipts")
    INTO u_ids, u_vip_tier, u_vip_expiry, u_excluded_until, u_exclusion_kind, u_is_admin, u_allowed, u_identity_ok,
         u_account, u_bonus_account, u_cash, u_bonus, u_receipts
    FROM "users" x
    JOIN LATERAL (SELECT l."id", l."balance" FROM "ledger_accounts" l WHERE l."user_id" = x."id" AND l."kind" = 'user' LIMIT 1) a ON true
    JOIN LATERAL (SELECT l."id", l."balance" FROM "ledger_accounts" l WHERE l."user_id" = x."id" AND l."kind" = 'user_bonus' LIMIT 1) b ON true
    WHERE x."id" = ANY(players);
  SELECT array_agg(q."key"), array_agg(q."held")
    INTO pair_keys, pair_held
    FROM (
      SELECT DISTINCT ON (p.u, p.r) p.u::TEXT || ':' || p.r::TEXT AS "key",
             (SELECT count(*) FROM "entries" e WHERE e."raffle_id" = p.r AND e."user_id" = p.u)::INTEGER AS "held"
      FROM unnest(players, p_raffles) AS p(u, r) WHERE p.u IS NOT NULL
    ) q;

  FOR i IN 1 .. coalesce(array_length(p_users, 1), 0) LOOP
    ord := i;
    outcome := NULL; tier := NULL; first_position := NULL; cost := NULL; balance := NULL;
    cap := NULL; excluded_until := NULL; exclusion_kind := NULL;
    cash_balance := NULL; bonus_balance := NULL; tickets_held := NULL;
    raffle_kind := NULL; raffle_pot := NULL; raffle_tickets := NULL; raffle_players := NULL; entrant_id := NULL;

    IF p_sessions[i] IS NOT NULL THEN
      SELECT s."id", s."user_id", s."play_seen_at", x."suspended_at",
             (x."date_of_birth" IS NULL OR x."terms_accepted_at" IS NULL OR x."country" IS NULL) AS "onboarding",
             x."username" IS NULL AS "nameless"
        INTO entrant
        FROM "sessions" s JOIN "users" x ON x."id" = s."user_id"
        WHERE s."token_hash" = p_sessions[i] AND s."expires_at" > p_now[i];
      IF NOT FOUND OR entrant."suspended_at" IS NOT NULL OR entrant."user_id" IS DISTINCT FROM players[i] THEN
        outcome := 'signed_out'; RETURN NEXT; CONTINUE;
      END IF;
      IF entrant."onboarding" THEN
        outcome := 'not_onboarded'; RETURN NEXT; CONTINUE;
      END IF;
      IF entrant."nameless" THEN
        outcome := 'no_username'; RETURN NEXT; CONTINUE;
      END IF;
      IF entrant."play_seen_at" <= p_now[i] - INTERVAL '1 minute' THEN
        UPDATE "sessions" SET
          "play_started_at" = CASE WHEN "play_seen_at" < p_now[i] - p_play_idle_gap THEN p_now[i] ELSE "play_started_at" END,
          "reality_check_at" = CASE WHEN "play_seen_at" < p_now[i] - p_play_idle_gap THEN NULL ELSE "reality_check_at" END,
          "play_seen_at" = p_now[i]
        WHERE "id" = entrant."id" AND "play_seen_at" <= p_now[i] - INTERVAL '1 minute';
      END IF;
    END IF;

    -- Every hit counts, a refused one too.
    b := array_position(bk_ids, p_limit_name || ':' || players[i] || '@' || p_windows[i]::TEXT);
    IF b IS NOT NULL THEN
      bk_counts[b] := bk_counts[b] + 1;
      bk_changed[b] := true;
      bp := array_position(bk_ids, p_limit_name || ':' || players[i] || '@' || p_previous[i]::TEXT);
      IF rate_limit_exceeds(bk_counts[b], bk_counts[bp], p_overlap[i], p_limit_max) THEN
        outcome := 'rate_limited'; RETURN NEXT; CONTINUE;
      END IF;
    END IF;

    u := array_position(u_ids, players[i]);
    IF u IS NULL THEN
      outcome := 'user_not_found'; RETURN NEXT; CONTINUE;
    END IF;
    IF u_is_admin[u] THEN
      outcome := 'staff'; RETURN NEXT; CONTINUE;
    END IF;
    IF u_excluded_until[u] IS NOT NULL AND u_excluded_until[u] > p_now[i] THEN
      outcome := 'excluded'; excluded_until := u_excluded_until[u]; exclusion_kind := u_exclusion_kind[u];
      RETURN NEXT; CONTINUE;
    END IF;
    IF NOT u_allowed[u] THEN
      outcome := 'jurisdiction'; RETURN NEXT; CONTINUE;
    END IF;
    IF NOT u_identity_ok[u] THEN
      outcome := 'identity_required'; RETURN NEXT; CONTINUE;
    END IF;

    r := array_position(r_ids, p_raffles[i]);
    IF r IS NULL OR r_pot_account[r] IS NULL OR r_pot_bonus_account[r] IS NULL OR (p_kinds[i] IS NOT NULL AND r_kind[r] <> p_kinds[i]) THEN
      outcome := 'raffle_not_found'; RETURN NEXT; CONTINUE;
    END IF;
    tier := r_tier[r];
    -- Closed early (closed_at, set under this lock): refused whatever the entry's own clock says.
    IF r_status[r] <> 'active' OR r_closed[r] IS NOT NULL OR p_now[i] >= r_ends[r] THEN
      outcome := 'raffle_closed'; RETURN NEXT; CONTINUE;
    END IF;
    IF p_now[i] < r_starts[r] THEN
      outcome := 'raffle_not_open'; RETURN NEXT; CONTINUE;
    END IF;
    IF r_vip[r] AND NOT (u_vip_tier[u] IS NOT NULL AND u_vip_expiry[u] IS NOT NULL AND u_vip_expiry[u] > p_now[i]) THEN
      outcome := 'vip_only'; RETURN NEXT; CONTINUE;
    END IF;
    k := array_position(pair_keys, players[i]::TEXT || ':' || p_raffles[i]::TEXT);
    IF pair_held[k] + p_tickets[i] > r_cap[r] THEN
      outcome := 'over_ticket_cap'; cap := r_cap[r]; RETURN NEXT; CONTINUE;
    END IF;
    cost := r_price[r] * p_tickets[i];
    IF u_cash[u] + u_bonus[u] < cost THEN
      outcome := 'insufficient_coins'; cost := NULL; RETURN NEXT; CONTINUE;
    END IF;
    -- The service refuses these before they come here; one that did would buy nothing.
    IF p_tickets[i] IS NULL OR p_tickets[i] < 1 THEN
      RAISE EXCEPTION 'entry % asks for % tickets', i, p_tickets[i] USING ERRCODE = 'invalid_parameter_value';
    END IF;

    first_position := r_tickets[r];
    IF pair_held[k] = 0 THEN r_players[r] := r_players[r] + 1; END IF;
    pair_held[k] := pair_held[k] + p_tickets[i];
    r_tickets[r] := r_tickets[r] + p_tickets[i];
    r_pot[r] := r_pot[r] + cost;
    r_changed[r] := true;
    spent_bonus := LEAST(u_bonus[u], cost);
    u_bonus[u] := u_bonus[u] - spent_bonus;
    u_cash[u] := u_cash[u] - (cost - spent_bonus);
    balance := u_cash[u] + u_bonus[u];
    -- What a raffle card shows after its entry, so that its page need not load again (ADR 093).
    cash_balance := u_cash[u];
    bonus_balance := u_bonus[u];
    tickets_held := pair_held[k];
    -- The raffle's figures after it: the instance that sent the entry moves the pot on the
    -- lists it keeps before answering (ADR 101); its event tells the others at commit.
    raffle_kind := r_kind[r]; raffle_pot := r_pot[r]; raffle_tickets := r_tickets[r]; raffle_players := r_players[r];
    -- Whose tickets changed: that instance forgets the ones it keeps before answering (ADR 103).
    entrant_id := players[i];
    a_ord := a_ord || i;
    a_user := a_user || players[i];
    a_raffle := a_raffle || p_raffles[i];
    a_first := a_first || first_position;
    a_tickets := a_tickets || p_tickets[i];
    a_cost := a_cost || cost;
    a_bonus := a_bonus || spent_bonus;
    a_user_account := a_user_account || u_account[u];
    a_user_bonus_account := a_user_bonus_account || u_bonus_account[u];
    a_pot_account := a_pot_account || r_pot_account[r];
    a_pot_bonus_account := a_pot_bonus_account || r_pot_bonus_account[r];
    receipts := receipts OR u_receipts[u];
    outcome := 'ok';
    RETURN NEXT;
  END LOOP;

  UPDATE "rate_limit_buckets" x SET "count" = c.count
    FROM unnest(bk_keys, bk_windows, bk_counts, bk_changed) AS c(key, window_start, count, changed)
    WHERE x."key" = c.key AND x."window_start" = c.window_start AND c.changed;

  IF array_length(a_ord, 1) IS NULL THEN
    RETURN;
  END IF;

  -- The tickets (the first ones take the entry's bonus coins), one ledger transaction per
  -- entry (its reference names the entry's first ticket row: positions alone may repeat,
  -- because a break's refund closes the gaps its tickets leave), and its postings: cash to
  -- the cash pot, bonus to the bonus pot, none of zero; the balance trigger runs once for
  -- them all.
  WITH accepted AS (
    SELECT * FROM unnest(a_ord, a_user, a_raffle, a_first, a_tickets, a_cost, a_bonus, a_user_account,
                         a_user_bonus_account, a_pot_account, a_pot_bonus_account)
      AS a(n, user_id, raffle_id, first, tickets, cost, bonus, user_account, user_bonus_account, pot_account, pot_bonus_account)
  ), tickets AS (
    INSERT INTO "entries" ("raffle_id", "user_id", "position", "cash", "bonus")
    SELECT a.raffle_id, a.user_id, a.first + g,
           a.cost / a.tickets - LEAST(a.cost / a.tickets, GREATEST(0, a.bonus - g * (a.cost / a.tickets))),
           LEAST(a.cost / a.tickets, GREATEST(0, a.bonus - g * (a.cost / a.tickets)))
    FROM accepted a, generate_series(0, a.tickets - 1) AS g
    ORDER BY a.n, g
    RETURNING "id", "raffle_id", "position"
  ), referenced AS (
    SELECT a.*, 'entry:' || a.raffle_id || ':' || t."id" AS reference
      FROM accepted a JOIN tickets t ON t."raffle_id" = a.raffle_id AND t."position" = a.first
  ), transactions AS (
    INSERT INTO "ledger_transactions" ("kind", "reference", "user_id", "raffle_id")
    SELECT 'entry', f.reference, f.user_id, f.raffle_id FROM referenced f ORDER BY f.n
    RETURNING "id", "reference"
  )
  INSERT INTO "ledger_postings" ("transaction_id", "account_id", "amount")
  SELECT x."id", p.account_id, p.amount
    FROM transactions x
    JOIN referenced f ON f.reference = x."reference"
    CROSS JOIN LATERAL (VALUES (1, f.user_account, f.bonus - f.cost), (2, f.user_bonus_account, -f.bonus),
                               (3, f.pot_account, f.cost - f.bonus), (4, f.pot_bonus_account, f.bonus)) AS p(side, account_id, amount)
    WHERE p.amount <> 0
    ORDER BY f.n, p.side;

  -- Only the counts change, and the pot events below tell them: the raffles trigger stays
  -- silent for this one statement (read_model_raffles_changed), so the instances keep their
  -- lists and move the pots on them (ADR 101).
  PERFORM set_config('raffle.pots_told', 'on', true);
  UPDATE "raffles" x SET "ticket_count" = c.tickets, "player_count" = c.players
    FROM unnest(r_ids, r_tickets, r_players, r_changed) AS c(id, tickets, players, changed)
    WHERE x."id" = c.id AND c.changed;
  PERFORM set_config('raffle.pots_told', '', true);

  -- The same event as app/infra/events.server.ts publishes, told at commit (announce): each
  -- raffle's pot after the batch.
  PERFORM announce('raffle_events', json_build_object(
      'type', 'pot', 'raffleId', c.id, 'kind', c.kind,
      'currentPot', (c.pot / 100)::TEXT || '.' || lpad((c.pot % 100)::TEXT, 2, '0'),
      'participantCount', c.players, 'ticketCount', c.tickets)::TEXT)
    FROM unnest(r_ids, r_kind, r_pot, r_players, r_tickets, r_changed) AS c(id, kind, pot, players, tickets, changed)
    WHERE c.changed;

  -- Whose tickets changed, for the other instances, which keep each player's tickets until
  -- their next entry (ADR 103): one announcement a batch, 100 players a payload (short rows,
  -- read by every instance).
  PERFORM announce('read_model', 'tickets:' || string_agg(p.id::TEXT, ','))
    FROM (SELECT d.id, (row_number() OVER (ORDER BY d.id) - 1) / 100 AS chunk
          FROM (SELECT DISTINCT unnest(a_user) AS id) d) p
    GROUP BY p.chunk;

  INSERT INTO "audit_events" ("actor", "action", "target", "details")
  SELECT a.user_id::TEXT, 'raffle.enter', 'raffle:' || a.raffle_id,
         jsonb_build_object('tickets', a.tickets, 'cost', a.cost::TEXT, 'cash', (a.cost - a.bonus)::TEXT, 'bonus', a.bonus::TEXT,
                            'positions', to_jsonb(ARRAY(SELECT generate_series(a.first, a.first + a.tickets - 1))))
    FROM unnest(a_ord, a_user, a_raffle, a_first, a_tickets, a_cost, a_bonus) AS a(n, user_id, raffle_id, first, tickets, cost, bonus)
    ORDER BY a.n;

  -- A receipt email per ticket for players who asked for them (email_entry_receipts), in
  -- the entry's transaction: sent if and only if the entry holds, once per ticket (its key).
  -- Most players ask for none: then the statement is not run at all (it took 0.45 ms a
  -- batch that wrote nothing, issue 36).
  IF receipts THEN
    INSERT INTO "email_outbox" ("idempotency_key", "kind", "user_id", "to_address", "data")
    SELECT 'entry-receipt:' || e."id", 'entry_receipt', u."id", u."email",
           jsonb_build_object('receiptId', e."id", 'raffleId', e."raffle_id", 'raffleKind', x."kind"::TEXT, 'tier', x."tier",
                              'position', e."position", 'cash', e."cash"::TEXT, 'bonus', e."bonus"::TEXT, 'seedHash', x."seed_hash",
                              'beaconRound', x."beacon_round"::TEXT,
                              'enteredAt', to_char(e."created_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS "UTC"'))
      FROM unnest(a_ord, a_user, a_raffle, a_first, a_tickets) AS a(n, user_id, raffle_id, first, tickets)
      JOIN "users" u ON u."id" = a.user_id AND u."email_entry_receipts"
      JOIN "raffles" x ON x."id" = a.raffle_id
      JOIN "entries" e ON e."raffle_id" = a.raffle_id AND e."position" BETWEEN a.first AND a.first + a.tickets - 1
      ORDER BY a.n, e."position"
      ON CONFLICT ("idempotency_key") DO NOTHING;
  END IF;
END $$;
