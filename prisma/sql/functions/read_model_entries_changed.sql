-- read_model_entries_changed: entries were written (an entry) or removed (an account closed):
-- 'tickets:<id>' for each player concerned makes every instance read their tickets again,
-- and only theirs; a raffle's own change still says 'raffles' (issue 36).
-- What the app keeps in memory is told when it changes (docs/decisions/013-reads-from-memory.md),
-- on the "read_model" channel, at commit, whatever wrote the rows. One notification per
-- player per statement (a batch of entries is one statement).
-- Triggers: entries_read_model_insert, entries_read_model_delete, and emptying the table
-- says 'reset' (below).
CREATE OR REPLACE FUNCTION "read_model_entries_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('read_model', 'tickets:' || x.user_id::TEXT) FROM (SELECT DISTINCT user_id FROM changed) x;
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER "entries_read_model_insert" AFTER INSERT ON "entries"
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "read_model_entries_changed"();
CREATE OR REPLACE TRIGGER "entries_read_model_delete" AFTER DELETE ON "entries"
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "read_model_entries_changed"();
CREATE OR REPLACE TRIGGER "entries_read_model_truncate" AFTER TRUNCATE ON "entries"
  FOR EACH STATEMENT EXECUTE FUNCTION "read_model_reset"();
