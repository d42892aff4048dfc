-- read_model_user_changed: users' rows changed or were deleted. A deletion or a change of
-- what the panels show (the name, the demo mark) sends 'user:<id>': every instance forgets
-- that user's cached sessions and the panels. Any other change (a draw adding to their
-- winnings, their VIP, their limits) sends 'account:<id>': their sessions only, so a draw
-- does not empty the day's panels for every page (issue 36). A row updated to itself sends
-- nothing.
-- Once per statement over its transition tables, in one insert: a draw batch updates every
-- winner in one statement, and a trigger per row cost a call and an insert per winner.
-- What the app keeps in memory is told when it changes (docs/decisions/013-reads-from-memory.md),
-- on the "read_model" channel, at commit, whatever wrote the rows (ADR 111).
-- Triggers: users_read_model_update, users_read_model_delete (below; they were per row).
CREATE OR REPLACE FUNCTION "read_model_user_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM announce_all('read_model', ARRAY(SELECT 'user:' || o."id"::TEXT FROM old_rows o));
  ELSE
    PERFORM announce_all('read_model', ARRAY(
      SELECT CASE WHEN (o."username", o."first_name", o."is_demo") IS NOT DISTINCT FROM (n."username", n."first_name", n."is_demo")
                  THEN 'account:' ELSE 'user:' END || o."id"::TEXT
      FROM old_rows o JOIN new_rows n ON n."id" = o."id"
      WHERE o IS DISTINCT FROM n));
  END IF;
  RETURN NULL;
END $$;

DROP TRIGGER IF EXISTS "users_read_model_update" ON "users";
DROP TRIGGER IF EXISTS "users_read_model_delete" ON "users";
CREATE TRIGGER "users_read_model_update" AFTER UPDATE ON "users"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "read_model_user_changed"();
CREATE TRIGGER "users_read_model_delete" AFTER DELETE ON "users"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "read_model_user_changed"();
