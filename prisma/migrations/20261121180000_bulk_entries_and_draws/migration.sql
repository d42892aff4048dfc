-- Raffle entries in one statement (docs/decisions/009-entries-and-draws-in-bulk.md).
--
-- enter_raffles takes a batch of entries (entry i = p_users[i] buys p_tickets[i] tickets
-- of p_raffles[i] at time p_now[i]; p_kinds[i], when not null, is the kind the raffle must
-- be) and applies every rule of an entry to each in turn, in one transaction: the player
-- exists and is not on a break or excluded, the raffle exists (of that kind), is open,
-- takes the player (VIP-only), the per-player cap holds and the coins are there. Each
-- entry gets one row back: outcome 'ok' with its positions, cost and the player's new
-- balance, or the code of the rule it broke (nothing of it is applied).
--
-- Locks follow the order every writer uses: the raffles (sorted ids), then the ledger
-- accounts (sorted ids). Money moves only through ledger postings, whose triggers keep
-- balances, floors and balance-per-transaction (migration 20261121100000).
CREATE FUNCTION "enter_raffles"(
  p_users UUID[], p_raffles UUID[], p_kinds TEXT[], p_tickets INTEGER[], p_now TIMESTAMPTZ[]
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
BEGIN
  PERFORM 1 FROM "raffles" WHERE "id" = ANY(p_raffles) ORDER BY "id" FOR UPDATE;
  INSERT INTO "ledger_accounts" ("kind", "user_id")
    SELECT DISTINCT 'user'::"LedgerAccountKind", u."id" FROM "users" u WHERE u."id" = ANY(p_users)
    ON CONFLICT ("user_id", "kind") DO NOTHING;
  PERFORM 1 FROM "ledger_accounts"
    WHERE ("kind" = 'user' AND "user_id" = ANY(p_users)) OR "raffle_id" = ANY(p_raffles)
    ORDER BY "id" FOR UPDATE;

  FOR i IN 1 .. coalesce(array_length(p_users, 1), 0) LOOP
    ord := i;
    outcome := NULL; tier := NULL; first_position := NULL; cost := NULL; balance := NULL;
    cap := NULL; excluded_until := NULL; exclusion_kind := NULL;

    SELECT u."vip_tier", u."vip_expiry", u."excluded_until", u."exclusion_kind" INTO player
      FROM "users" u WHERE u."id" = p_users[i];
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
    SELECT count(*) INTO held FROM "entries" e WHERE e."raffle_id" = p_raffles[i] AND e."user_id" = p_users[i];
    IF held + p_tickets[i] > raffle."max_tickets_per_player" THEN
      outcome := 'over_ticket_cap'; cap := raffle."max_tickets_per_player"; RETURN NEXT; CONTINUE;
    END IF;
    cost := raffle."entry_price" * p_tickets[i];
    SELECT a."id", a."balance" INTO player_account, player_balance
      FROM "ledger_accounts" a WHERE a."user_id" = p_users[i] AND a."kind" = 'user';
    IF player_balance < cost THEN
      outcome := 'insufficient_coins'; cost := NULL; RETURN NEXT; CONTINUE;
    END IF;

    first_position := raffle."ticket_count";
    positions := ARRAY(SELECT generate_series(first_position, first_position + p_tickets[i] - 1));
    -- The reference names the purchase's first ticket row: positions alone may repeat,
    -- because a break's refund closes the gaps its tickets leave.
    WITH tickets AS (
      INSERT INTO "entries" ("raffle_id", "user_id", "position")
      SELECT p_raffles[i], p_users[i], p FROM unnest(positions) AS p
      RETURNING "id", "position"
    )
    INSERT INTO "ledger_transactions" ("kind", "reference", "user_id", "raffle_id")
    SELECT 'entry', 'entry:' || p_raffles[i] || ':' || t."id", p_users[i], p_raffles[i]
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
      VALUES (p_users[i]::TEXT, 'raffle.enter', 'raffle:' || p_raffles[i],
              jsonb_build_object('tickets', p_tickets[i], 'cost', cost::TEXT, 'positions', to_jsonb(positions)));
    outcome := 'ok';
    RETURN NEXT;
  END LOOP;
END $$;

-- Balances follow postings per statement rather than per row: a statement inserting many
-- postings (a batch of draws) updates each account once, by the sum of its postings.
-- Callers lock the accounts first (sorted ids), as before; the floors stay CHECK constraints.
CREATE FUNCTION "ledger_apply_postings"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "ledger_accounts" a SET "balance" = a."balance" + d."amount"
    FROM (SELECT "account_id", sum("amount") AS "amount" FROM "new_postings" GROUP BY "account_id") d
    WHERE a."id" = d."account_id";
  RETURN NULL;
END $$;
CREATE TRIGGER "ledger_postings_apply_statement" AFTER INSERT ON "ledger_postings"
  REFERENCING NEW TABLE AS "new_postings" FOR EACH STATEMENT EXECUTE FUNCTION "ledger_apply_postings"();
DROP TRIGGER "ledger_postings_apply" ON "ledger_postings";
DROP FUNCTION "ledger_apply_posting"();
