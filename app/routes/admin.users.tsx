import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { ActionButton, Cell, SelectAction, Table, TextAction } from "~/components/admin-tabs";
import { SectionError } from "~/components/route-error";
import { queryParams } from "~/web/http.server";
import { listUsers, usersSearch } from "~/services/back-office/admin.server";
import { requireAdmin } from "~/web/auth.server";
import { utcMinute } from "~/shared/dates";
import { formatDecimalDollars as money } from "~/shared/money";
import { BREAKS, EXCLUSIONS } from "~/shared/responsible-play-options";
import { DemoMark } from "~/components/demo-mark";

/** The users tab: a search by email or username (`q`), 25 players a page (`page`). */
export async function loader({ request }: LoaderFunctionArgs) {
  // Loaders run in parallel: the layout's guard does not cover this one.
  await requireAdmin(request);
  const { q, page } = usersSearch(queryParams(request));
  return { q, ...(await listUsers(q, page)) };
}

const EXTEND_CHOICES = [
  ...Object.keys(BREAKS).map((k) => ({ value: k, label: `${k} from now` })),
  ...Object.keys(EXCLUSIONS).map((k) => ({ value: k, label: `${k} exclusion from now` })),
];

export default function AdminUsers() {
  const data = useLoaderData<typeof loader>();
  const pageHref = (page: number) => `/admin/users?q=${encodeURIComponent(data.q)}&page=${page}`;
  return (
    <section aria-label="Users" className="flex flex-col gap-3">
      <form method="get" action="/admin/users" className="flex flex-wrap gap-2">
        <label className="flex min-w-0 items-center gap-2">
          Search <input name="q" defaultValue={data.q} className="w-full min-w-0 rounded border bg-surface px-2 py-1 text-ink" />
        </label>
        <button type="submit" className="rounded border px-3">
          Search
        </button>
      </form>
      <Table label="Players" head={["Player", "Balance", "Winnings", "VIP", "Status", "Protections (set by the player)", ""]}>
        {data.users.map((u) => (
          <tr key={u.id}>
            <Cell label="Player">
              {u.username ?? "—"}
              <DemoMark isDemo={u.isDemo} />
              <span className="block text-xs break-all">{u.email}</span>
            </Cell>
            <Cell label="Balance">{u.coinBalance.toLocaleString("en-US")}</Cell>
            <Cell label="Winnings">{u.totalWinnings.toLocaleString("en-US")}</Cell>
            <Cell label="VIP">{u.vipTier ?? "—"}</Cell>
            <Cell label="Status">
              {[
                u.suspended ? "suspended" : "active",
                u.identityVerified ? "verified" : "unverified",
                u.flagged ? `flagged: ${u.flagged}` : "",
                u.residence ?? "",
                u.playClosed ? "place not served: play and buying closed" : "",
              ]
                .filter(Boolean)
                .join(" · ")}
            </Cell>
            <Cell label="Protections">
              <span className="flex flex-col gap-1 text-xs" data-testid="player-protections">
                {u.exclusion ? (
                  <strong>
                    {u.exclusion.kind === "self_exclusion" ? "Self-excluded" : "On a break"} until {utcMinute(u.exclusion.until)}
                  </strong>
                ) : null}
                {u.limits.map((l) => (
                  <span key={l.period}>
                    {l.period} limit: {l.amount === null ? "none" : money(l.amount)}
                    {l.pending ? ` (pending ${l.pending.amount === null ? "removal" : money(l.pending.amount)} from ${utcMinute(l.pending.from)})` : ""}
                  </span>
                ))}
                {u.realityCheckMinutes ? <span>Reality check every {u.realityCheckMinutes} min</span> : null}
                {!u.exclusion && u.limits.length === 0 && !u.realityCheckMinutes ? <span>—</span> : null}
                {u.exclusion ? (
                  <SelectAction
                    action={`/admin/users/${u.id}/exclusion`}
                    id={`extend-${u.id}`}
                    name="choice"
                    label="Extend to"
                    defaultValue="6m"
                    options={EXTEND_CHOICES}
                    button="Extend"
                  />
                ) : null}
              </span>
            </Cell>
            <Cell>
              <span className="flex flex-wrap gap-1">
                {u.identityVerified ? null : (
                  <TextAction action={`/admin/users/${u.id}/verify`} name="reason" label="Verified outside the site: how" button="Record verification" />
                )}
                {u.flaggedAt ? (
                  <TextAction action={`/admin/users/${u.id}/clear-flag`} name="note" label="Why" button="Clear flag" fields={{ flaggedAt: u.flaggedAt }} />
                ) : null}
                <ActionButton
                  action={`/admin/users/${u.id}/suspend`}
                  label={u.suspended ? "Unsuspend" : "Suspend"}
                  fields={{ suspended: String(!u.suspended) }}
                  danger={!u.suspended}
                />
              </span>
            </Cell>
          </tr>
        ))}
      </Table>
      <div className="flex gap-4 text-sm">
        {data.page > 0 ? <Link to={pageHref(data.page - 1)}>Previous</Link> : null}
        {(data.page + 1) * data.pageSize < data.total ? <Link to={pageHref(data.page + 1)}>Next</Link> : null}
        <span>{data.total} players</span>
      </div>
    </section>
  );
}

export const meta: MetaFunction = () => [{ title: "Players — Admin — Raffle Rush" }];

export function ErrorBoundary() {
  return (
    <SectionError
      title="The players could not be shown"
      back={{ to: "/admin/users", label: "Show every player" }}
      statuses={{ 400: { title: "The search could not be run", message: "Search by part of a player's email or username, in plain text." } }}
    />
  );
}
