-- read_model_user_changed: a user's row changed or was deleted: 'user:<id>' makes every
-- instance forget that user's cached sessions.
-- What the app keeps in memory is told when it changes (docs/decisions/013-reads-from-memory.md),
-- on the "read_model" channel, at commit, whatever wrote the rows.
-- Triggers: users_read_model_update, users_read_model_delete.
CREATE OR REPLACE FUNCTION "read_model_user_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('read_model', 'user:' || OLD."id"::TEXT);
  RETURN NULL;
END $$;
