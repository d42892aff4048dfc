-- Complaints (issue 35 item 4; docs/decisions/081-complaints.md). A player files one about a
-- draw, a payout, an account decision or anything else; the back office answers it by
-- `due_at` (COMPLAINT_ANSWER_DAYS after filing, fixed when filed), then closes it.
CREATE TABLE "complaints" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "user_id" UUID NOT NULL,
    -- The form's token (or the API's requestId): a second submit of the same form files nothing.
    "request_key" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    -- The raffle (draw) or withdrawal (payout) it concerns, checked to be the player's own.
    "reference" UUID,
    "message" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'received',
    "answer" TEXT,
    "answered_by_id" UUID,
    "answered_at" TIMESTAMPTZ(3),
    "closed_by_id" UUID,
    "closed_at" TIMESTAMPTZ(3),
    "due_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "complaints_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "complaints_subject" CHECK ("subject" IN ('draw', 'payout', 'account', 'other')),
    CONSTRAINT "complaints_status" CHECK ("status" IN ('received', 'answered', 'closed')),
    CONSTRAINT "complaints_answered" CHECK (("status" = 'received') = ("answer" IS NULL))
);

CREATE UNIQUE INDEX "complaints_user_id_request_key_key" ON "complaints"("user_id", "request_key");
CREATE INDEX "complaints_status_due_at_idx" ON "complaints"("status", "due_at");
CREATE INDEX "complaints_user_id_created_at_idx" ON "complaints"("user_id", "created_at");
ALTER TABLE "complaints" ADD CONSTRAINT "complaints_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
