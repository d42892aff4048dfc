-- read_model_user_changed: a user's row changed or was deleted. A deletion or a change of
-- what the panels show (the name, the demo mark) sends 'user:<id>': every instance forgets
-- that user's cached sessions and the panels. Any other change (a draw adding to their
-- winnings, their VIP, their limits) sends 'account:<id>': their sessions only, so a draw
-- does not empty the day's panels for every page (issue 36).
-- What the app keeps in memory is told when it changes (docs/decisions/013-reads-from-memory.md),
-- on the "read_model" channel, at commit, whatever wrote the rows.
-- Triggers: users_read_model_update, users_read_model_delete.
CREATE OR REPLACE FUNCTION "read_model_user_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND (OLD."username", OLD."first_name", OLD."is_demo") IS NOT DISTINCT FROM (NEW."username", NEW."first_name", NEW."is_demo") THEN
    PERFORM announce('read_model', 'account:' || OLD."id"::TEXT);
  ELSE
    PERFORM announce('read_model', 'user:' || OLD."id"::TEXT);
  END IF;
  RETURN NULL;
END $$;
