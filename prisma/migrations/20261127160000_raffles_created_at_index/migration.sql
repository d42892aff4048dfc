-- The public feed of draws (/fair/feed.xml, issue 34) lists each raffle's commitment at the
-- time it was made, newest first, a page at a time: read by this index, not a scan.
CREATE INDEX "raffles_created_at_idx" ON "raffles"("created_at");
