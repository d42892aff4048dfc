-- Know your player (issue 35; docs/decisions/080-know-your-player.md).

-- Each identity check of a player: one session at the identity provider (Stripe Identity, or
-- the demo provider), or a check an admin records as done outside the site (provider
-- 'outside', with the admin and the reason). The provider keeps the documents; we keep the
-- result, the provider's session id and the fields it verified.
CREATE TABLE "identity_checks" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "user_id" UUID NOT NULL,
    "provider" TEXT NOT NULL,
    "provider_session_id" TEXT,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "failure_reason" TEXT,
    "verified_first_name" TEXT,
    "verified_last_name" TEXT,
    "verified_date_of_birth" DATE,
    "recorded_by_id" UUID,
    "reason" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "decided_at" TIMESTAMPTZ(3),

    CONSTRAINT "identity_checks_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "identity_checks_status" CHECK ("status" IN ('pending', 'verified', 'failed', 'under_age'))
);
CREATE UNIQUE INDEX "identity_checks_provider_session_id_key" ON "identity_checks"("provider_session_id");
CREATE INDEX "identity_checks_user_id_idx" ON "identity_checks"("user_id");
ALTER TABLE "identity_checks" ADD CONSTRAINT "identity_checks_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- The person key of a verified name and date of birth (a keyed hash, never the fields):
-- closing the account keeps the person's controls under it as well as under the email's.
ALTER TABLE "users" ADD COLUMN "identity_key" TEXT;

-- The demo identity provider's sessions (demo mode only), kept as a provider would keep them.
CREATE TABLE "demo_identity_sessions" (
    "id" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "metadata" JSONB NOT NULL,
    "outcome" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "demo_identity_sessions_pkey" PRIMARY KEY ("id")
);
