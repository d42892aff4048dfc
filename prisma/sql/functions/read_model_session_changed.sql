-- read_model_session_changed: a session ended or changed (sign-out, the admin gate, a
-- reality check): 'session:<hash>'.
-- What the app keeps in memory is told when it changes (docs/decisions/013-reads-from-memory.md),
-- on the "read_model" channel, at commit, whatever wrote the rows.
-- Triggers: sessions_read_model_update, sessions_read_model_delete.
CREATE OR REPLACE FUNCTION "read_model_session_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM announce('read_model', 'session:' || OLD."token_hash");
  RETURN NULL;
END $$;
