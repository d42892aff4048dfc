import * as audit from "~/models/back-office/audit-search.server";
import { parseIsoDay } from "~/shared/dates";
import { coinsToDecimal } from "~/shared/money";
import { usernameKey } from "~/shared/username";

/** Rows per page of the audit log. */
export const AUDIT_PAGE_SIZE = 50;
export const ACTOR_KINDS = ["admin", "player", "system"] as const;
type ActorKind = (typeof ACTOR_KINDS)[number];

/** The filters as the page's GET form sends them (every field optional, as text). */
export type AuditFilterInput = { actor?: string; action?: string; target?: string; from?: string; to?: string; before?: string; after?: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** The kinds of target the services write ("<kind>:<id>"); a bare id matches any of them. */
const TARGET_KINDS = ["user", "raffle", "withdrawal", "payment", "entry", "session"];
const CURSOR = /^\d{1,18}$/;
const ACTION = /^[a-z0-9_.]{1,64}$/;

/** The filters read for the page, with what the admin typed (to show it back), or the problem with them. */
export function readAuditFilter(params: URLSearchParams): AuditFilterInput {
  const text = (name: string) => (params.get(name) ?? "").trim().slice(0, 200);
  return {
    actor: text("actor"),
    action: text("action").toLowerCase(),
    target: text("target"),
    from: text("from"),
    to: text("to"),
    before: text("before"),
    after: text("after"),
  };
}

/** Which targets the admin means: "kind:id" as written, a bare id of any kind, or a player's email or username. */
async function targetsOf(target: string): Promise<string[]> {
  const lower = target.toLowerCase();
  const [kind, id] = lower.split(":", 2);
  if (id !== undefined && UUID.test(id)) return [`${kind}:${id}`];
  if (UUID.test(lower)) return TARGET_KINDS.map((k) => `${k}:${lower}`);
  const users = await audit.usersMatching(lower, usernameKey(target));
  return [target, ...users.map((u) => `user:${u.id}`)];
}

function problemWith(input: AuditFilterInput): string | null {
  if (input.actor && !(ACTOR_KINDS as readonly string[]).includes(input.actor)) return "Who acted is an admin, a player or the system";
  if (input.action && !ACTION.test(input.action)) return "An action is lower-case letters, digits, dots and underscores, like payout.approve";
  for (const day of [input.from, input.to]) if (day && !parseIsoDay(day)) return "Dates are days like 2026-11-25";
  for (const cursor of [input.before, input.after]) if (cursor && !CURSOR.test(cursor)) return "That page of the log does not exist";
  return null;
}

const nameOf = (user: { username: string | null; email: string }) => user.username ?? user.email;

/**
 * One page of the audit log with the filters applied, newest first, and names instead of
 * ids: who acted (an admin, a player, or the system) and what the target was (a player,
 * a withdrawal with its player and amount, a raffle with its kind, tier and price).
 */
export async function auditView(input: AuditFilterInput = {}) {
  const problem = problemWith(input);
  const filter = problem ? {} : input;
  const query: audit.AuditQuery = {
    actorKind: (filter.actor || undefined) as ActorKind | undefined,
    action: filter.action || undefined,
    targets: filter.target ? await targetsOf(filter.target) : undefined,
    from: filter.from ? parseIsoDay(filter.from)! : undefined,
    to: filter.to ? new Date(parseIsoDay(filter.to)!.getTime() + 86_400_000) : undefined,
    before: filter.before ? BigInt(filter.before) : undefined,
    after: filter.after ? BigInt(filter.after) : undefined,
    limit: AUDIT_PAGE_SIZE,
  };
  const fetched = await audit.auditRows(query);
  const more = fetched.length > AUDIT_PAGE_SIZE;
  const rows = fetched.slice(0, AUDIT_PAGE_SIZE);
  if (query.after !== undefined) rows.reverse();

  const targetIds = (kind: string) =>
    rows.flatMap((r) => (r.target?.startsWith(`${kind}:`) ? [r.target.slice(kind.length + 1)] : [])).filter((id) => UUID.test(id));
  const userIds = [...new Set([...rows.map((r) => r.actor).filter((a) => UUID.test(a)), ...targetIds("user")])];
  const [users, withdrawals, raffles] = await Promise.all([
    audit.usersNamed(userIds),
    audit.withdrawalsNamed(targetIds("withdrawal")),
    audit.rafflesNamed(targetIds("raffle")),
  ]);
  const userById = new Map(users.map((u) => [u.id, u]));
  const withdrawalById = new Map(withdrawals.map((w) => [w.id, w]));
  const raffleById = new Map(raffles.map((r) => [r.id, r]));

  const describeTarget = (target: string | null): string => {
    if (!target) return "—";
    const [kind, id = ""] = target.split(":", 2);
    const user = kind === "user" ? userById.get(id) : undefined;
    if (user) return `player ${nameOf(user)}`;
    const withdrawal = kind === "withdrawal" ? withdrawalById.get(id) : undefined;
    if (withdrawal) return `withdrawal of $${coinsToDecimal(withdrawal.amount)} by ${nameOf(withdrawal.user)}`;
    const raffle = kind === "raffle" ? raffleById.get(id) : undefined;
    if (raffle) return `${raffle.kind} raffle ${raffle.tier} $${coinsToDecimal(raffle.entryPrice)} (${id.slice(0, 8)})`;
    return target;
  };

  return {
    problem,
    filter: input,
    rows: rows.map((r) => {
      const user = userById.get(r.actor);
      return {
        id: r.id.toString(),
        createdAt: r.createdAt.toISOString(),
        actorKind: (user ? (user.isAdmin ? "admin" : "player") : "system") as ActorKind,
        actorId: r.actor,
        actor: user ? nameOf(user) : r.actor,
        action: r.action,
        target: r.target,
        targetName: describeTarget(r.target),
        details: r.details,
      };
    }),
    // Keyset cursors: the page after the last row shown, and the page before the first.
    older: (query.after !== undefined || more) && rows.length > 0 ? rows.at(-1)!.id.toString() : null,
    newer: (query.before !== undefined || (query.after !== undefined && more)) && rows.length > 0 ? rows[0]!.id.toString() : null,
  };
}

export type AuditView = Awaited<ReturnType<typeof auditView>>;
