-- What the app keeps in memory is told when it changes (docs/decisions/013-reads-from-memory.md).
--
-- Each instance caches signed-in sessions (with their user) and the open raffles for
-- reads. These triggers announce every change to those rows on the "read_model" channel,
-- at commit, whatever wrote them (a page, an admin, the scheduler, a script):
--   'user:<id>'       a user's row changed or was deleted: forget their sessions;
--   'session:<hash>'  a session ended or changed (sign-out, the admin gate, a reality check);
--   'raffles'         some raffle changed (an entry, a refund, a draw, a new round): every pot
--                     moves only with its raffle's row, so this covers the pots too.
-- A session's play-tracking columns (written on most requests) announce nothing.

CREATE FUNCTION "read_model_user_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('read_model', 'user:' || OLD."id"::TEXT);
  RETURN NULL;
END $$;
CREATE TRIGGER "users_read_model_update" AFTER UPDATE ON "users"
  FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION "read_model_user_changed"();
CREATE TRIGGER "users_read_model_delete" AFTER DELETE ON "users"
  FOR EACH ROW EXECUTE FUNCTION "read_model_user_changed"();

CREATE FUNCTION "read_model_session_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('read_model', 'session:' || OLD."token_hash");
  RETURN NULL;
END $$;
CREATE TRIGGER "sessions_read_model_update" AFTER UPDATE ON "sessions"
  FOR EACH ROW WHEN (
    (OLD."token_hash", OLD."user_id", OLD."expires_at", OLD."admin_gate_passed_at", OLD."reality_check_at")
    IS DISTINCT FROM (NEW."token_hash", NEW."user_id", NEW."expires_at", NEW."admin_gate_passed_at", NEW."reality_check_at"))
  EXECUTE FUNCTION "read_model_session_changed"();
CREATE TRIGGER "sessions_read_model_delete" AFTER DELETE ON "sessions"
  FOR EACH ROW EXECUTE FUNCTION "read_model_session_changed"();

-- Once per statement, and PostgreSQL folds a transaction's identical notifications into one.
CREATE FUNCTION "read_model_raffles_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('read_model', 'raffles');
  RETURN NULL;
END $$;
CREATE TRIGGER "raffles_read_model" AFTER INSERT OR UPDATE OR DELETE ON "raffles"
  FOR EACH STATEMENT EXECUTE FUNCTION "read_model_raffles_changed"();
