-- AlterTable
ALTER TABLE "users" ADD COLUMN "country" TEXT,
ADD COLUMN "region" TEXT,
ADD COLUMN "reality_check_minutes" INTEGER,
ADD CONSTRAINT "users_country" CHECK ("country" IS NULL OR "country" ~ '^[A-Z]{2}$'),
ADD CONSTRAINT "users_region" CHECK ("region" IS NULL OR "region" ~ '^[A-Z]{2}-[A-Z0-9]{1,3}$'),
ADD CONSTRAINT "users_reality_check_minutes" CHECK ("reality_check_minutes" IS NULL OR "reality_check_minutes" IN (15, 30, 60));

-- AlterTable
ALTER TABLE "sessions" ADD COLUMN "play_started_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
ADD COLUMN "play_seen_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
ADD COLUMN "reality_check_at" TIMESTAMPTZ(3);
