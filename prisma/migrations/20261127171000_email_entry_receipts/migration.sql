-- AlterTable: a receipt by email for every accepted entry, off until the player turns it on.
ALTER TABLE "users" ADD COLUMN "email_entry_receipts" BOOLEAN NOT NULL DEFAULT false;
