-- Passkeys and changing the email (docs/decisions/037-passkeys-and-email-change.md).

-- A change of address is confirmed by a token (link and 6-digit code) sent to the new address.
ALTER TABLE "email_tokens" DROP CONSTRAINT "email_tokens_purpose_check";
ALTER TABLE "email_tokens" ADD CONSTRAINT "email_tokens_purpose_check" CHECK ("purpose" IN ('password_reset', 'verify_email', 'change_email'));

-- A WebAuthn credential (passkey) of a player or admin. Only the public key is stored.
CREATE TABLE "passkeys" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "user_id" UUID NOT NULL,
    -- The credential's id (base64url), as the authenticator gives it.
    "credential_id" TEXT NOT NULL,
    -- The COSE public key.
    "public_key" BYTEA NOT NULL,
    -- The signature counter last seen (0 for authenticators that keep none).
    "counter" BIGINT NOT NULL DEFAULT 0,
    "transports" TEXT[] NOT NULL,
    -- singleDevice or multiDevice (synced), and whether it is backed up now.
    "device_type" TEXT NOT NULL,
    "backed_up" BOOLEAN NOT NULL,
    -- The name the player gave it.
    "name" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMPTZ(3),

    CONSTRAINT "passkeys_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "passkeys_device_type_check" CHECK ("device_type" IN ('singleDevice', 'multiDevice'))
);
CREATE UNIQUE INDEX "passkeys_credential_id_key" ON "passkeys"("credential_id");
CREATE INDEX "passkeys_user_id_idx" ON "passkeys"("user_id");
ALTER TABLE "passkeys" ADD CONSTRAINT "passkeys_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- A WebAuthn challenge: single use (deleted when used), valid five minutes.
CREATE TABLE "webauthn_challenges" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    -- register (for user_id: no foreign key, the row lives five minutes) or sign_in (anyone).
    "purpose" TEXT NOT NULL,
    "user_id" UUID,
    "challenge" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "webauthn_challenges_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "webauthn_challenges_purpose_check" CHECK ("purpose" IN ('register', 'sign_in'))
);
CREATE INDEX "webauthn_challenges_expires_at_idx" ON "webauthn_challenges"("expires_at");

-- When this session was signed in with a passkey that verified its user (PIN or biometrics).
ALTER TABLE "sessions" ADD COLUMN "passkey_verified_at" TIMESTAMPTZ(3);
