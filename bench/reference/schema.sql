-- The reference for the entries figure (issue 22): the same work as an entry, done the
-- plain way, on tables holding just what it needs, with the indexes the app's tables have.
DROP TABLE IF EXISTS ledger, tickets, raffles, balances, sessions;
CREATE TABLE sessions (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  token_hash text NOT NULL UNIQUE,
  user_id uuid NOT NULL,
  expires_at timestamptz(3) NOT NULL
);
CREATE INDEX ON sessions (user_id);
CREATE INDEX ON sessions (expires_at);
CREATE TABLE balances (
  user_id uuid PRIMARY KEY,
  coins bigint NOT NULL CHECK (coins >= 0)
);
CREATE TABLE raffles (
  id uuid PRIMARY KEY,
  entry_price bigint NOT NULL,
  pot bigint NOT NULL DEFAULT 0,
  ticket_count int NOT NULL DEFAULT 0,
  ends_at timestamptz(3) NOT NULL
);
CREATE TABLE tickets (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  raffle_id uuid NOT NULL REFERENCES raffles (id),
  user_id uuid NOT NULL,
  position int NOT NULL,
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  UNIQUE (raffle_id, position)
);
CREATE INDEX ON tickets (raffle_id, user_id);
CREATE INDEX ON tickets (user_id, created_at);
CREATE TABLE ledger (
  id bigserial PRIMARY KEY,
  user_id uuid NOT NULL,
  raffle_id uuid NOT NULL,
  amount bigint NOT NULL,
  created_at timestamptz(3) NOT NULL DEFAULT now()
);
CREATE INDEX ON ledger (user_id, created_at);
CREATE INDEX ON ledger (raffle_id);
