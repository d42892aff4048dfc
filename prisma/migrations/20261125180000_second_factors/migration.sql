-- Second factors (docs/decisions/036-totp-second-factors.md): an authenticator app's TOTP
-- secret per account, and ten one-time recovery codes.
CREATE TABLE "totp_factors" (
    "user_id" UUID NOT NULL,
    -- The base32 secret sealed with AES-256-GCM (app/services/crypto-box.server.ts, its own
    -- key derived from PAYOUT_ENCRYPTION_KEY): a database dump alone yields no codes.
    "secret_sealed" TEXT NOT NULL,
    -- Null while enrolment waits for the first code from the app: not yet a factor.
    "confirmed_at" TIMESTAMPTZ(3),
    -- The last time step (unix seconds / 30) whose code was accepted: a code is accepted
    -- only for a later step, set by compare-and-set, so a code is never used twice.
    "last_step" BIGINT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "totp_factors_pkey" PRIMARY KEY ("user_id")
);
ALTER TABLE "totp_factors" ADD CONSTRAINT "totp_factors_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

CREATE TABLE "recovery_codes" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "user_id" UUID NOT NULL,
    -- SHA-256 of the code (80 random bits); the code itself was shown once.
    "code_hash" TEXT NOT NULL,
    "used_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "recovery_codes_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "recovery_codes_user_id_code_hash_key" ON "recovery_codes"("user_id", "code_hash");
ALTER TABLE "recovery_codes" ADD CONSTRAINT "recovery_codes_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
