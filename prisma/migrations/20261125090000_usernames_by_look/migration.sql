-- Usernames are unique by how they look, not only by case (docs/decisions/024-usernames-by-look.md):
-- username_key becomes the name's look-alike key (app/services/username.ts, usernameKey):
-- lower-cased, then Unicode's confusable skeleton of the ASCII a name may hold, closed under
-- case ("i", "I", "1" and "l" are one letter, "0" is "o", "m" is "rn"). The unique index on
-- it decides between concurrent claims. username_renamed_at is when the player last
-- changed an existing username (one change per 30 days; null until the first).
ALTER TABLE "users" ADD COLUMN "username_renamed_at" TIMESTAMPTZ(3);

-- Names that already exist keep working: where two now share a key, the older account keeps
-- it and the others are grandfathered with their id appended (still unique, matched by no
-- new name), until they rename.
DROP INDEX "users_username_key_key";
WITH keyed AS (
  SELECT id, replace(translate(lower(username), 'i10', 'llo'), 'm', 'rn') AS key,
         row_number() OVER (PARTITION BY replace(translate(lower(username), 'i10', 'llo'), 'm', 'rn') ORDER BY created_at, id) AS n
  FROM "users" WHERE username IS NOT NULL
)
UPDATE "users" u SET username_key = CASE WHEN keyed.n = 1 THEN keyed.key ELSE keyed.key || '#' || u.id::text END
FROM keyed WHERE keyed.id = u.id;
CREATE UNIQUE INDEX "users_username_key_key" ON "users"("username_key");
