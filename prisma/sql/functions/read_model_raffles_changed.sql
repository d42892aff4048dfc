-- read_model_raffles_changed: some raffle changed (a new round, a draw, a refund, an admin's
-- change): 'raffles'. Every pot moves only with its raffle's row, so this covers pots too,
-- except for enter_raffles's own update of the counts, which tells each pot in its event
-- (raffle_events) and marks its statement ('raffle.pots_told'): the instances move those pots
-- on the lists they keep instead of reading the lists again (ADR 101).
-- What the app keeps in memory is told when it changes (docs/decisions/013-reads-from-memory.md),
-- on the "read_model" channel, at commit, whatever wrote the rows.
-- Trigger: raffles_read_model.
CREATE OR REPLACE FUNCTION "read_model_raffles_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND current_setting('raffle.pots_told', true) = 'on' THEN
    RETURN NULL;
  END IF;
  PERFORM announce('read_model', 'raffles');
  RETURN NULL;
END $$;
