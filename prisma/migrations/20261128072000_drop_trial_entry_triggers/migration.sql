-- ADR 087's trial put three triggers on entries through a function file, and its withdrawal
-- removed the file; the migrator never drops what a removed file made. A database that ran
-- the trial would still say 'tickets:<id>' at every entry, which the read model takes for an
-- unknown change: every instance would forget all it keeps, sessions too, at every entry.
DROP TRIGGER IF EXISTS "entries_read_model_insert" ON "entries";
DROP TRIGGER IF EXISTS "entries_read_model_delete" ON "entries";
DROP TRIGGER IF EXISTS "entries_read_model_truncate" ON "entries";
DROP FUNCTION IF EXISTS "read_model_entries_changed"();
