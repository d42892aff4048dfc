import type { User } from "~/generated/prisma/client";
import { db, isUniqueViolation } from "../db.server";
import * as person from "../play-safety/person-control.server";

export function findUserForSignIn(email: string) {
  return db().user.findUnique({
    where: { email: email.toLowerCase() },
    select: { id: true, passwordHash: true, suspendedAt: true },
  });
}

export type NewAccount = {
  email: string;
  passwordHash?: string;
  dateOfBirth?: Date;
  termsAcceptedAt?: Date;
  firstName?: string;
  country?: string;
  region?: string | null;
  emailVerifiedAt?: Date;
  /** A demo crowd player, marked as such from the moment it exists. */
  isDemo?: boolean;
  emailNotifications?: boolean;
};

export type Created = { outcome: "created"; userId: string } | { outcome: "taken" } | { outcome: "excluded"; until: Date };

/**
 * Creates the account unless the email is taken (one account per email) or the person's
 * self-exclusion still runs; a person seen before gets their break and deposit
 * limits back. Under the person's lock, so a closure keeping the controls and this sign-up
 * reading them come one after the other.
 */
export async function createAccount(data: NewAccount, { personKey, now }: { personKey: string; now: Date }): Promise<Created> {
  return db().$transaction(async (tx) => {
    await person.lockPerson(tx, personKey);
    const controls = await person.controlsOf(tx, personKey);
    if (controls?.exclusionKind === "self_exclusion" && controls.excludedUntil && controls.excludedUntil > now) {
      return { outcome: "excluded", until: controls.excludedUntil };
    }
    const rows = await tx.user.createManyAndReturn({
      data: [{ ...data, email: data.email.toLowerCase() }],
      skipDuplicates: true,
      select: { id: true },
    });
    if (!rows[0]) return { outcome: "taken" };
    if (controls) await person.restoreControls(tx, rows[0].id, controls, now);
    return { outcome: "created", userId: rows[0].id };
  });
}

export type SetUsername = { outcome: "set" | "unchanged" | "taken" } | { outcome: "too_soon"; nextRename: Date };

/**
 * Sets the username unless another account holds its key (the unique index decides
 * between concurrent claims) or, for a change of an existing name, the last change was
 * less than `renameEveryMs` ago (decided under the player's row lock, so two changes at
 * once cannot both pass).
 */
export async function setUsername(
  userId: string,
  { username, key, renameEveryMs, now }: { username: string; key: string; renameEveryMs: number; now: Date },
): Promise<SetUsername> {
  try {
    return await db().$transaction(async (tx) => {
      const [current] = await tx.$queryRaw<(Pick<User, "username"> & { renamedAt: User["usernameRenamedAt"] })[]>`
        SELECT username, username_renamed_at AS "renamedAt" FROM users WHERE id = ${userId}::uuid FOR UPDATE`;
      if (!current) throw new Error(`no user ${userId}`);
      if (current.username === username) return { outcome: "unchanged" };
      const rename = current.username !== null;
      if (rename && current.renamedAt && current.renamedAt.getTime() + renameEveryMs > now.getTime()) {
        return { outcome: "too_soon", nextRename: new Date(current.renamedAt.getTime() + renameEveryMs) };
      }
      await tx.user.update({
        where: { id: userId },
        data: { username, usernameKey: key, ...(rename ? { usernameRenamedAt: now } : {}) },
        select: { id: true },
      });
      return { outcome: "set" };
    });
  } catch (error) {
    // Another account holds the key (perhaps claimed a moment ago by a concurrent request).
    if (isUniqueViolation(error)) return { outcome: "taken" };
    throw error;
  }
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
