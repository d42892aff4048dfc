import { Prisma, type AuditEvent } from "~/generated/prisma/client";
import { db } from "../db.server";

/** The audit log's filters, as the back office sends them (admins only). */
export type AuditQuery = {
  /** admin: an admin's user id; player: any other user id; system: anything that is not a user id ("system", "provider"). */
  actorKind?: "admin" | "player" | "system";
  /** An action ("payout.approve") or a family of them ("payout"). */
  action?: string;
  /** The targets to match exactly ("user:<id>", "raffle:<id>"). */
  targets?: string[];
  from?: Date;
  /** Exclusive. */
  to?: Date;
  /** The cursor: rows older than this id (the next page), or newer (the previous page). */
  before?: bigint;
  after?: bigint;
  limit: number;
};

const USER_ID = "^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$";
const likePrefix = (text: string) => `${text.replace(/[\\%_]/g, (c) => `\\${c}`)}.%`;

/**
 * One page of the audit log, newest first, by keyset on the id (stable while rows are
 * added); one row more than asked, so the caller knows whether there is another page.
 */
export async function auditRows(query: AuditQuery) {
  const where: Prisma.Sql[] = [Prisma.sql`TRUE`];
  if (query.actorKind === "admin") where.push(Prisma.sql`a.actor IN (SELECT id::text FROM users WHERE is_admin)`);
  if (query.actorKind === "player") where.push(Prisma.sql`a.actor ~ ${USER_ID} AND a.actor NOT IN (SELECT id::text FROM users WHERE is_admin)`);
  if (query.actorKind === "system") where.push(Prisma.sql`a.actor !~ ${USER_ID}`);
  if (query.action) where.push(Prisma.sql`(a.action = ${query.action} OR a.action LIKE ${likePrefix(query.action)})`);
  if (query.targets) where.push(Prisma.sql`a.target = ANY(${query.targets}::text[])`);
  if (query.from) where.push(Prisma.sql`a.created_at >= ${query.from}`);
  if (query.to) where.push(Prisma.sql`a.created_at < ${query.to}`);
  if (query.before !== undefined) where.push(Prisma.sql`a.id < ${query.before}`);
  if (query.after !== undefined) where.push(Prisma.sql`a.id > ${query.after}`);
  const order = query.after !== undefined ? Prisma.sql`ASC` : Prisma.sql`DESC`;
  return db().$queryRaw<Pick<AuditEvent, "id" | "actor" | "action" | "target" | "details" | "createdAt">[]>`
    SELECT a.id, a.actor, a.action, a.target, a.details, a.created_at AS "createdAt"
    FROM audit_events a
    WHERE ${Prisma.join(where, " AND ")}
    ORDER BY a.id ${order}
    LIMIT ${query.limit + 1}`;
}

/** Names for the user ids an audit page mentions (actors and targets). */
export function usersNamed(ids: string[]) {
  return db().user.findMany({ where: { id: { in: ids } }, select: { id: true, username: true, email: true, isAdmin: true } });
}

/** The player and amount of the withdrawals an audit page mentions. */
export function withdrawalsNamed(ids: string[]) {
  return db().withdrawal.findMany({ where: { id: { in: ids } }, select: { id: true, amount: true, user: { select: { username: true, email: true } } } });
}

/** What the raffles an audit page mentions were. */
export function rafflesNamed(ids: string[]) {
  return db().raffle.findMany({ where: { id: { in: ids } }, select: { id: true, kind: true, tier: true, entryPrice: true } });
}

/** The users an admin's search names: by email, or by username (its look-alike key). */
export function usersMatching(email: string, usernameKey: string) {
  return db().user.findMany({ where: { OR: [{ email: email.toLowerCase() }, { usernameKey }] }, select: { id: true }, take: 10 });
}
