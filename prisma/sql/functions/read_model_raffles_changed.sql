-- read_model_raffles_changed: some raffle changed (an entry, a refund, a draw, a new
-- round): 'raffles'. Every pot moves only with its raffle's row, so this covers pots too.
-- What the app keeps in memory is told when it changes (docs/decisions/013-reads-from-memory.md),
-- on the "read_model" channel, at commit, whatever wrote the rows.
-- Trigger: raffles_read_model.
CREATE OR REPLACE FUNCTION "read_model_raffles_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('read_model', 'raffles');
  RETURN NULL;
END $$;
