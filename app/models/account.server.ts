import { db, isUniqueViolation } from "./db.server";

export function findUserForSignIn(email: string) {
  return db().user.findUnique({
    where: { email: email.toLowerCase() },
    select: { id: true, passwordHash: true, suspendedAt: true },
  });
}

/** Creates the account; undefined when the email is taken (one account per email). */
export async function createAccount(data: {
  email: string;
  passwordHash?: string;
  dateOfBirth?: Date;
  termsAcceptedAt?: Date;
  firstName?: string;
  country?: string;
  region?: string | null;
}): Promise<string | undefined> {
  const rows = await db().user.createManyAndReturn({
    data: [{ ...data, email: data.email.toLowerCase() }],
    skipDuplicates: true,
    select: { id: true },
  });
  return rows[0]?.id;
}

/** Sets the username unless someone holds it (case-insensitively); false when taken. */
export async function setUsername(userId: string, username: string): Promise<boolean> {
  const rows = await db().$queryRaw<{ id: string }[]>`
    UPDATE users SET username = ${username}, username_key = ${username.toLowerCase()}, updated_at = now()
    WHERE id = ${userId}::uuid
      AND NOT EXISTS (SELECT 1 FROM users WHERE username_key = ${username.toLowerCase()} AND id <> ${userId}::uuid)
    RETURNING id::text AS id`.catch((error: unknown) => {
    // A concurrent request took the name between our check and our write.
    if (isUniqueViolation(error)) return [];
    throw error;
  });
  return rows.length === 1;
}

export function completeProfile(userId: string, data: { dateOfBirth: Date; termsAcceptedAt: Date; country: string; region: string | null }) {
  return db().user.update({ where: { id: userId }, data, select: { id: true } });
}

export function findIdentity(provider: string, subject: string) {
  return db().userIdentity.findUnique({ where: { provider_subject: { provider, subject } }, select: { userId: true } });
}

export function linkIdentity(userId: string, provider: string, subject: string) {
  return db().userIdentity.createMany({ data: [{ userId, provider, subject }], skipDuplicates: true });
}

export function findUserIdByEmail(email: string) {
  return db().user.findUnique({ where: { email: email.toLowerCase() }, select: { id: true, suspendedAt: true } });
}

export function setSuspended(userId: string, suspendedAt: Date | null) {
  return db().user.update({ where: { id: userId }, data: { suspendedAt }, select: { id: true } });
}
