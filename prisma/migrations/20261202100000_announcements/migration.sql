-- What a transaction tells every instance (live game events, changes to what they keep in
-- memory) is written here rather than sent with NOTIFY, which makes notifying commits wait
-- for each other's disk flush (ADR 111). Each instance reads the rows committed since its
-- last read, by the snapshot's transaction ids; rows go once every instance has read them.
CREATE TABLE "announcements" (
  "id" BIGSERIAL PRIMARY KEY,
  "xid" BIGINT NOT NULL DEFAULT (pg_current_xact_id()::TEXT)::BIGINT,
  "channel" TEXT NOT NULL,
  "payload" TEXT NOT NULL
);
CREATE INDEX "announcements_xid_idx" ON "announcements" ("xid");
