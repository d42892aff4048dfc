-- announce: tells every instance `payload` on `channel` once this transaction commits, never
-- for a rollback. A row read after the commit (app/infra/announcements.server.ts), not a
-- NOTIFY: PostgreSQL holds one lock from a notifying commit until its disk flush, so
-- notifying commits could not share flushes (ADR 111). The row carries its transaction's id.
CREATE OR REPLACE FUNCTION "announce"(channel TEXT, payload TEXT) RETURNS void LANGUAGE sql AS $$
  INSERT INTO "announcements" ("channel", "payload") VALUES (channel, payload)
$$;
