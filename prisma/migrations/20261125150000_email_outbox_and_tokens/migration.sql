-- Email (docs/decisions/032-email-outbox-and-recovery.md): an outbox written in the same
-- transaction as the action that causes a message, single-use tokens for password resets
-- and email verification (only their SHA-256 stored), and two columns on users.

-- When the player proved the address is theirs (a link or a 6-digit code); needed before a
-- first withdrawal. Accounts that already withdrew are grandfathered: their first
-- withdrawal is behind them. Everyone else verifies before their next one.
ALTER TABLE "users" ADD COLUMN "email_verified_at" TIMESTAMPTZ(3);
UPDATE "users" u SET email_verified_at = now() WHERE EXISTS (SELECT 1 FROM "withdrawals" w WHERE w.user_id = u.id);

-- The "Email notifications" setting (optional messages: wins, withdrawal requests, receipts).
-- Another branch may add the same column for the settings dialog: IF NOT EXISTS keeps both.
ALTER TABLE "users" ADD COLUMN IF NOT EXISTS "email_notifications" BOOLEAN NOT NULL DEFAULT true;

CREATE TABLE "email_outbox" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    -- One message per (event, kind): "win:<raffle id>", "receipt:<payment id>"; a repeat is ignored.
    "idempotency_key" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "user_id" UUID,
    "to_address" TEXT NOT NULL,
    "data" JSONB NOT NULL DEFAULT '{}',
    -- pending until sent; failed after the last attempt.
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    -- A sender claimed it until then; after, another may (at least once: see the ADR).
    "lease_until" TIMESTAMPTZ(3),
    "last_error" TEXT,
    "sent_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "email_outbox_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "email_outbox_status_check" CHECK ("status" IN ('pending', 'sent', 'failed'))
);
CREATE UNIQUE INDEX "email_outbox_idempotency_key_key" ON "email_outbox"("idempotency_key");
CREATE INDEX "email_outbox_status_next_attempt_at_idx" ON "email_outbox"("status", "next_attempt_at");
CREATE INDEX "email_outbox_user_id_idx" ON "email_outbox"("user_id");
ALTER TABLE "email_outbox" ADD CONSTRAINT "email_outbox_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

CREATE TABLE "email_tokens" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "user_id" UUID NOT NULL,
    -- password_reset or verify_email.
    "purpose" TEXT NOT NULL,
    -- SHA-256 of the link's token; the token itself is only in the mail.
    "token_hash" TEXT NOT NULL,
    -- SHA-256 of the token id and the 6-digit code (verification only).
    "code_hash" TEXT,
    -- The address the token was sent to (verification proves this one).
    "email" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "used_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "email_tokens_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "email_tokens_purpose_check" CHECK ("purpose" IN ('password_reset', 'verify_email'))
);
CREATE UNIQUE INDEX "email_tokens_token_hash_key" ON "email_tokens"("token_hash");
CREATE INDEX "email_tokens_user_id_purpose_idx" ON "email_tokens"("user_id", "purpose");
ALTER TABLE "email_tokens" ADD CONSTRAINT "email_tokens_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
