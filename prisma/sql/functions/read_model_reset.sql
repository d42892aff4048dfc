-- read_model_reset: emptying a table the read model caches (a reset script) is announced:
-- 'reset' makes every instance drop everything it keeps.
-- What the app keeps in memory is told when it changes (docs/decisions/013-reads-from-memory.md),
-- on the "read_model" channel, at commit, whatever wrote the rows.
-- Triggers: users_read_model_truncate, sessions_read_model_truncate, raffles_read_model_truncate.
CREATE OR REPLACE FUNCTION "read_model_reset"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM announce('read_model', 'reset');
  RETURN NULL;
END $$;
