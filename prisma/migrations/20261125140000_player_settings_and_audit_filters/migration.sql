-- Settings that do what they say (docs/decisions/031-settings-and-back-office.md), kept on the
-- player's row so that they follow the account to every device and work without JavaScript:
-- email_notifications: optional emails (wins, withdrawals, receipts) are sent only when on;
--   on by default (the spec's default; they are about the player's own account, not offers).
-- sound_effects: a short sound when a round the player entered is drawn; off by default.
-- quick_raffle_notifications: a browser notification when a quick round the player entered
--   is drawn; off by default, because turning it on asks the browser for permission.
ALTER TABLE "users"
  ADD COLUMN "email_notifications" BOOLEAN NOT NULL DEFAULT true,
  ADD COLUMN "sound_effects" BOOLEAN NOT NULL DEFAULT false,
  ADD COLUMN "quick_raffle_notifications" BOOLEAN NOT NULL DEFAULT false;

-- The audit log filtered by who acted: an admin's (or a player's) rows are found through
-- this index, newest first, however many rows the scheduler and the players wrote since.
CREATE INDEX "audit_events_actor_id_idx" ON "audit_events"("actor", "id");
