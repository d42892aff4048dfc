-- Emptying a table the read model caches (a reset script) is announced too: 'reset' makes
-- every instance drop everything it keeps (docs/decisions/013-reads-from-memory.md).
CREATE FUNCTION "read_model_reset"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('read_model', 'reset');
  RETURN NULL;
END $$;
CREATE TRIGGER "users_read_model_truncate" AFTER TRUNCATE ON "users"
  FOR EACH STATEMENT EXECUTE FUNCTION "read_model_reset"();
CREATE TRIGGER "sessions_read_model_truncate" AFTER TRUNCATE ON "sessions"
  FOR EACH STATEMENT EXECUTE FUNCTION "read_model_reset"();
CREATE TRIGGER "raffles_read_model_truncate" AFTER TRUNCATE ON "raffles"
  FOR EACH STATEMENT EXECUTE FUNCTION "read_model_reset"();
