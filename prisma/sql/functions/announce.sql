-- announce: tells every instance `payload` on `channel` once this transaction commits, never
-- for a rollback. A row read after the commit (app/infra/announcements.server.ts), not a
-- NOTIFY: PostgreSQL holds one lock from a notifying commit until its disk flush, so
-- notifying commits could not share flushes (ADR 111). The row carries its transaction's id.
-- PL/pgSQL, whose body is checked when it runs: the functions are applied to databases
-- migrated only part of the way in tests.
CREATE OR REPLACE FUNCTION "announce"(channel TEXT, payload TEXT) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "announcements" ("channel", "payload") VALUES (announce.channel, announce.payload);
END $$;
