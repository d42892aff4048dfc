import { Link } from "@remix-run/react";
import type { AuditView } from "~/services/back-office/audit-view.server";
import { Cell, Table } from "./admin-tabs";

const field = "min-h-11 rounded border border-line-strong bg-surface px-2 py-1 text-ink";

/** The page of the log the cursor names, with the filters kept. */
function pageHref(filter: AuditView["filter"], cursor: { before?: string; after?: string }) {
  const params = new URLSearchParams();
  for (const key of ["actor", "action", "target", "from", "to"] as const) if (filter[key]) params.set(key, filter[key]!);
  for (const [key, value] of Object.entries(cursor)) if (value) params.set(key, value);
  return `/admin/audit?${params}`;
}

/**
 * The audit log: filters (who acted, action, target, dates) in a GET form that works
 * without JavaScript, fifty rows a page by keyset cursor, names instead of ids.
 */
export function AuditLog({ view }: { view: AuditView }) {
  const { filter } = view;
  return (
    <section aria-label="Audit log" className="flex flex-col gap-3">
      <form method="get" action="/admin/audit" className="flex flex-wrap items-end gap-2 text-sm" aria-label="Filter the audit log">
        <label className="flex flex-col gap-1">
          Who
          <select name="actor" defaultValue={filter.actor ?? ""} className={field}>
            <option value="">anyone</option>
            <option value="admin">admins</option>
            <option value="player">players</option>
            <option value="system">the system</option>
          </select>
        </label>
        <label className="flex flex-col gap-1">
          Action
          <input name="action" defaultValue={filter.action} placeholder="payout or payout.approve" className={`${field} w-44`} />
        </label>
        <label className="flex flex-col gap-1">
          Target
          <input name="target" defaultValue={filter.target} placeholder="id, user:id, email or username" className={`${field} w-56 max-w-full`} />
        </label>
        <label className="flex flex-col gap-1">
          From
          <input type="date" name="from" defaultValue={filter.from} className={field} />
        </label>
        <label className="flex flex-col gap-1">
          To
          <input type="date" name="to" defaultValue={filter.to} className={field} />
        </label>
        <button type="submit" className="min-h-11 rounded border px-3">
          Filter
        </button>
        <Link to="/admin/audit" className="flex min-h-11 items-center underline">
          Clear
        </Link>
      </form>
      {view.problem ? (
        <p role="alert" className="font-semibold text-red-700 dark:text-red-400">
          {view.problem}
        </p>
      ) : null}
      <Table label="Audit log" head={["When (UTC)", "Who", "What", "Target", "Details"]}>
        {view.rows.map((e) => (
          <tr key={e.id} data-testid="audit-event">
            <Cell label="When">{e.createdAt.slice(0, 19).replace("T", " ")}</Cell>
            <Cell label="Who">
              {e.actor} <span className="text-xs text-ink-muted">({e.actorKind})</span>
            </Cell>
            <Cell label="What">{e.action}</Cell>
            <Cell label="Target">
              <span title={e.target ?? undefined}>{e.targetName}</span>
            </Cell>
            <Cell label="Details">
              <code className="text-xs break-all">{JSON.stringify(e.details)}</code>
            </Cell>
          </tr>
        ))}
      </Table>
      {view.rows.length === 0 ? <p>No audit events match.</p> : null}
      <nav aria-label="Audit log pages" className="flex gap-4 text-sm">
        {view.newer ? (
          <Link to={pageHref(filter, { after: view.newer })} className="underline" rel="prev">
            Newer
          </Link>
        ) : null}
        {view.newer ? (
          <Link to={pageHref(filter, {})} className="underline">
            Newest
          </Link>
        ) : null}
        {view.older ? (
          <Link to={pageHref(filter, { before: view.older })} className="underline" rel="next">
            Older
          </Link>
        ) : null}
      </nav>
    </section>
  );
}
