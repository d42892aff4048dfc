import type { Prisma } from "~/generated/prisma/client";
import type { Tx } from "../db.server";
import type { LimitRow } from "./play-limits.server";

/**
 * What outlives an account for the person (ADR 053; PRODUCT.md "A self-exclusion outlives
 * the account"): the exclusion or break still running and the deposit limits in force, kept
 * under a person key (app/infra/person-key.server.ts), and the gifts given once per person.
 */
export type PersonControls = { excludedUntil: Date | null; exclusionKind: string | null; depositLimits: LimitRow[] };

/**
 * Serialises everything that reads or writes one person's controls: a closure keeping them,
 * a sign-up matching them. Held until the transaction ends.
 */
export async function lockPerson(tx: Tx, personKey: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`person:${personKey}`}, 0))`;
}

type StoredLimit = Omit<LimitRow, "pendingFrom"> & { pendingFrom: string | null };

export async function controlsOf(tx: Tx, personKey: string): Promise<PersonControls | undefined> {
  const row = await tx.personControl.findUnique({ where: { personKey } });
  if (!row) return undefined;
  const limits = row.depositLimits as StoredLimit[];
  return {
    excludedUntil: row.excludedUntil,
    exclusionKind: row.exclusionKind,
    depositLimits: limits.map((l) => ({ ...l, pendingFrom: l.pendingFrom ? new Date(l.pendingFrom) : null })),
  };
}

/** Keeps the closing account's controls for the person; an exclusion kept before and running longer stays. */
export async function keepControls(tx: Tx, personKey: string, controls: PersonControls, now: Date): Promise<void> {
  const before = await controlsOf(tx, personKey);
  const longer = before?.excludedUntil && before.excludedUntil > now && (!controls.excludedUntil || before.excludedUntil > controls.excludedUntil);
  const exclusion = longer ? { excludedUntil: before.excludedUntil, exclusionKind: before.exclusionKind } : controls;
  const data = {
    kind: personKey.slice(0, personKey.indexOf(":")),
    excludedUntil: exclusion.excludedUntil,
    exclusionKind: exclusion.exclusionKind,
    depositLimits: controls.depositLimits as unknown as Prisma.InputJsonValue,
    updatedAt: now,
  };
  await tx.personControl.upsert({ where: { personKey }, create: { personKey, ...data }, update: data });
}

/** The account's email, its running break or exclusion, and its deposit limits: what closure keeps. */
export async function accountControls(tx: Tx, userId: string): Promise<{ email: string } & PersonControls> {
  const user = await tx.user.findUniqueOrThrow({ where: { id: userId }, select: { email: true, excludedUntil: true, exclusionKind: true } });
  const depositLimits = await tx.depositLimit.findMany({
    where: { userId },
    select: { period: true, amountCents: true, pendingAmountCents: true, pendingRemoval: true, pendingFrom: true },
  });
  return { ...user, depositLimits };
}

/** Gives a new account the person's break and deposit limits back. */
export async function restoreControls(tx: Tx, userId: string, controls: PersonControls, now: Date): Promise<void> {
  if (controls.excludedUntil && controls.excludedUntil > now) {
    await tx.user.update({
      where: { id: userId },
      data: { excludedUntil: controls.excludedUntil, exclusionKind: controls.exclusionKind },
      select: { id: true },
    });
  }
  if (controls.depositLimits.length > 0) {
    await tx.depositLimit.createMany({ data: controls.depositLimits.map((limit) => ({ ...limit, userId })), skipDuplicates: true });
  }
}

/** Claims a gift given once per person (welcome coins); false when an earlier account had it. */
export async function claimPersonGrant(tx: Tx, personKey: string, grant: string, userId: string): Promise<boolean> {
  const claimed = await tx.personGrant.createMany({ data: [{ personKey, grant, userId }], skipDuplicates: true });
  return claimed.count === 1;
}
