-- announce_all: announce (announce.sql) for many payloads on one channel, in one insert and in
-- the array's order: a statement trigger tells each row it changed without a call and an
-- insert per row. Nothing for an empty array.
CREATE OR REPLACE FUNCTION "announce_all"(channel TEXT, payloads TEXT[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "announcements" ("channel", "payload")
  SELECT announce_all.channel, x.p FROM unnest(announce_all.payloads) WITH ORDINALITY AS x(p, n) ORDER BY x.n;
END $$;
