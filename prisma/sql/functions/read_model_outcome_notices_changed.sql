-- read_model_outcome_notices_changed: outcome notices were written (a draw) or taken (a
-- page showed them): 'account:<id>' for each player concerned makes every instance read their
-- session again, whose user says whether news is waiting (docs/decisions/028-telling-players-what-happened.md).
-- Not 'user:', which also empties the panels: a draw tells every player in it.
-- What the app keeps in memory is told when it changes (docs/decisions/013-reads-from-memory.md),
-- on the "read_model" channel, at commit, whatever wrote the rows. One notification per
-- player per statement (a draw writes a batch's notices in one statement).
-- Triggers: outcome_notices_read_model_insert, outcome_notices_read_model_delete (below).
CREATE OR REPLACE FUNCTION "read_model_outcome_notices_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM announce_all('read_model', ARRAY(SELECT DISTINCT 'account:' || user_id::TEXT FROM changed));
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER "outcome_notices_read_model_insert" AFTER INSERT ON "outcome_notices"
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "read_model_outcome_notices_changed"();
CREATE OR REPLACE TRIGGER "outcome_notices_read_model_delete" AFTER DELETE ON "outcome_notices"
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "read_model_outcome_notices_changed"();
