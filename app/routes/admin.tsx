import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useRevalidator } from "@remix-run/react";
import { useEffect } from "react";
import { AuditLog } from "~/components/admin-audit";
import { RaffleList } from "~/components/admin-raffles";
import { ActionButton, Cell, SelectAction, Table, TextAction } from "~/components/admin-tabs";
import { RevenueChart } from "~/components/revenue-chart";
import { auditView, readAuditFilter } from "~/services/admin-audit.server";
import { dashboard, listRafflesForAdmin, listUsers, reconciliation, listTransfersAwaitingReference } from "~/services/admin.server";
import { requireAdmin } from "~/services/auth.server";
import { queryParams } from "~/infra/http.server";
import { formatDecimalDollars as money } from "~/shared/money";
import { BREAKS, EXCLUSIONS } from "~/shared/responsible-play-options";
import { REVENUE_PERIODS, type RevenuePeriod } from "~/shared/revenue-periods";
import { revenueOverTime } from "~/services/revenue.server";
import { utcMinute } from "~/shared/dates";
import { PageError } from "~/components/route-error";

const TABS = ["payouts", "users", "raffles", "audit", "ledger"] as const;
type Tab = (typeof TABS)[number];

/** The back office: overview and revenue on every tab; one tab's data at a time. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const data = await adminData(request);
  // Filters that are not what they should be: the page says why, as a 400.
  return Response.json(data, { status: data.audit?.problem ? 400 : 200 });
}

async function adminData(request: Request) {
  const params = queryParams(request);
  const tab: Tab = TABS.find((t) => t === params.get("tab")) ?? "payouts";
  const q = (params.get("q") ?? "").slice(0, 100);
  const page = Math.max(0, Number.parseInt(params.get("page") ?? "0", 10) || 0);
  const period = (Object.keys(REVENUE_PERIODS) as RevenuePeriod[]).find((p) => p === params.get("revenue")) ?? "daily";
  const showEmpty = params.get("empty") === "1";
  const [overview, revenue, users, raffles, audit, ledger] = await Promise.all([
    dashboard(),
    revenueOverTime(period),
    tab === "users" ? listUsers(q, page) : null,
    tab === "raffles" ? listRafflesForAdmin({ showEmpty }) : null,
    tab === "audit" ? auditView(readAuditFilter(params)) : null,
    tab === "ledger" ? reconciliation() : null,
  ]);
  const transfers = tab === "payouts" ? await listTransfersAwaitingReference() : null;
  return { tab, q, overview, revenue, users, raffles, showEmpty, audit, ledger, transfers };
}

/** Revenue over time (daily, weekly, monthly): links that work without JavaScript, the chart drawn on the server. */
function Revenue({ revenue, tab }: { revenue: Awaited<ReturnType<typeof revenueOverTime>>; tab: string }) {
  return (
    <section aria-label="Revenue over time" className="flex flex-col gap-2">
      <nav aria-label="Revenue period" className="flex gap-3 text-sm">
        {(Object.keys(REVENUE_PERIODS) as RevenuePeriod[]).map((p) => (
          <Link key={p} to={`/admin?tab=${tab}&revenue=${p}`} aria-current={p === revenue.period ? "page" : undefined} className={`capitalize underline ${p === revenue.period ? "font-bold" : ""}`}>
            {p}
          </Link>
        ))}
      </nav>
      <RevenueChart period={revenue.period} points={revenue.points} />
    </section>
  );
}

export default function Admin() {
  const data = useLoaderData<Awaited<ReturnType<typeof adminData>>>();
  const { revalidate } = useRevalidator();
  useEffect(() => {
    const timer = setInterval(revalidate, 30_000);
    return () => clearInterval(timer);
  }, [revalidate]);
  const { overview, liabilities, revenue, payouts } = data.overview;
  const flow = `/admin?tab=${data.tab}`;
  return (
    <main className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-8">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-3xl font-bold">Admin dashboard</h1>
        <div className="flex gap-4 text-sm">
          <Link to={flow} className="underline">Refresh</Link>
          <Link to="/" className="underline">Back to Site</Link>
        </div>
      </div>
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4" data-testid="overview">
        {[
          ["Players", overview.totalUsers],
          ["Active raffles", overview.activeRaffles],
          ["Revenue (card payments, coins and VIP, less refunds and disputes)", money(overview.totalRevenue)],
          ["Revenue today · last 7 days · last 30 days", `${money(revenue.daily)} · ${money(revenue.weekly)} · ${money(revenue.monthly)}`],
          ["Paid out", money(overview.totalPayouts)],
          ["Profit (revenue − paid out)", money(overview.totalProfits)],
          ["Owed: players' cash (withdrawable, held included)", money(liabilities.playerCash)],
          ["Held for withdrawals", money(liabilities.heldForWithdrawals)],
          ["Players' bonus coins (play only)", `${liabilities.playerBonusCoins.toLocaleString("en-US")} coins`],
        ].map(([label, value]) => (
          <div key={label} className="min-w-0 rounded-lg border border-slate-200 p-3 dark:border-slate-800">
            <dt className="text-xs">{label}</dt>
            <dd className="text-xl font-bold break-words" data-testid="overview-value">{value}</dd>
          </div>
        ))}
      </dl>
      <Revenue revenue={data.revenue} tab={data.tab} />
      <nav aria-label="Admin sections" className="flex flex-wrap gap-2 border-b border-slate-200 pb-2 dark:border-slate-800">
        {TABS.map((t) => (
          <Link key={t} to={`/admin?tab=${t}`} aria-current={t === data.tab ? "page" : undefined} className={`rounded px-3 py-1 capitalize ${t === data.tab ? "bg-slate-900 text-white dark:bg-slate-100 dark:text-slate-900" : ""}`}>
            {t}
          </Link>
        ))}
      </nav>

      {data.tab === "payouts" ? (
        <section aria-label="Payouts" className="flex flex-col gap-3">
          <p>Pending: {payouts.pending.length} · {money(payouts.pendingAmount)}</p>
          <div className="flex flex-wrap gap-2">
            <ActionButton action="/admin/payouts/bulk-approve" label="Auto-approve up to $50" fields={{ maxAmount: "50" }} />
            <ActionButton action="/admin/payouts/bulk-approve" label="Auto-approve up to $100" fields={{ maxAmount: "100" }} />
          </div>
          <Table label="Pending payouts" head={["Player", "Amount", "Method", "Age", "Notes", ""]}>
            {payouts.pending.map((p) => (
              <tr key={p.id} data-testid="payout">
                <Cell label="Player">{p.player}</Cell>
                <Cell label="Amount">{money(p.amount)}</Cell>
                <Cell label="Method">{p.destination}</Cell>
                <Cell label="Age">{p.ageMinutes} min</Cell>
                <Cell>
                  {p.blocked ? <strong className="text-red-700 dark:text-red-400" data-testid="payout-blocked">{p.blocked}: not payable. </strong> : null}
                  {p.requiresVerification ? "Identity verification required. " : ""}
                  {p.awaitingSecondApproval ? "Awaiting a second approval." : ""}
                </Cell>
                <Cell>
                  <span className="flex flex-wrap gap-1">
                    <ActionButton action={`/admin/payouts/${p.id}/approve`} label="Approve" />
                    <ActionButton action={`/admin/payouts/${p.id}/reject`} label="Reject" fields={{ reason: "Admin review" }} danger />
                  </span>
                </Cell>
              </tr>
            ))}
          </Table>
          <h2 className="text-xl font-bold">Transfers waiting for their reference</h2>
          <p className="text-sm">
            Approved payouts whose remainder (beyond refunds to the player&apos;s cards) goes to the method they chose. Send it, then record
            the bank or wallet reference: only then is it completed. If it cannot be sent, record why: the amount goes back to the
            player&apos;s cash and they are told the reason.
          </p>
          <Table label="Transfers waiting for their reference" head={["Player", "Amount", "To", "Age", "Notes", ""]}>
            {(data.transfers ?? []).map((t) => (
              <tr key={t.legId} data-testid="transfer">
                <Cell label="Player">{t.player}</Cell>
                <Cell label="Amount">{money(t.amount)}</Cell>
                <Cell label="To">{t.destination}</Cell>
                <Cell label="Age">{t.ageMinutes} min</Cell>
                <Cell>{t.blocked ? <strong className="text-red-700 dark:text-red-400">{t.blocked}: not payable.</strong> : null}</Cell>
                <Cell>
                  <span className="flex flex-col gap-1">
                    <TextAction action={`/admin/payouts/${t.withdrawalId}/transfer`} name="reference" label="Reference" button="Record sent" />
                    <TextAction action={`/admin/payouts/${t.withdrawalId}/transfer`} name="failure" label="Reason" button="Record failed" danger />
                  </span>
                </Cell>
              </tr>
            ))}
          </Table>
        </section>
      ) : null}

      {data.users ? (
        <section aria-label="Users" className="flex flex-col gap-3">
          <form method="get" className="flex flex-wrap gap-2">
            <input type="hidden" name="tab" value="users" />
            <label className="flex min-w-0 items-center gap-2">Search <input name="q" defaultValue={data.q} className="w-full min-w-0 rounded border bg-white px-2 py-1 text-slate-900 dark:bg-slate-900 dark:text-slate-100" /></label>
            <button type="submit" className="rounded border px-3">Search</button>
          </form>
          <Table label="Players" head={["Player", "Balance", "Winnings", "VIP", "Status", "Protections (set by the player)", ""]}>
            {data.users.users.map((u) => (
              <tr key={u.id}>
                <Cell label="Player">{u.username ?? "—"}<span className="block text-xs break-all">{u.email}</span></Cell>
                <Cell label="Balance">{u.coinBalance.toLocaleString("en-US")}</Cell>
                <Cell label="Winnings">{u.totalWinnings.toLocaleString("en-US")}</Cell>
                <Cell label="VIP">{u.vipTier ?? "—"}</Cell>
                <Cell label="Status">{[u.suspended ? "suspended" : "active", u.identityVerified ? "verified" : "unverified", u.flagged ? `flagged: ${u.flagged}` : "", u.residence ?? "", u.playClosed ? "place not served: play and buying closed" : ""].filter(Boolean).join(" · ")}</Cell>
                <Cell label="Protections">
                  <span className="flex flex-col gap-1 text-xs" data-testid="player-protections">
                    {u.exclusion ? (
                      <strong>{u.exclusion.kind === "self_exclusion" ? "Self-excluded" : "On a break"} until {utcMinute(u.exclusion.until)}</strong>
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
                        options={[
                          ...Object.keys(BREAKS).map((k) => ({ value: k, label: `${k} from now` })),
                          ...Object.keys(EXCLUSIONS).map((k) => ({ value: k, label: `${k} exclusion from now` })),
                        ]}
                        button="Extend"
                      />
                    ) : null}
                  </span>
                </Cell>
                <Cell>
                  <span className="flex flex-wrap gap-1">
                    {u.identityVerified ? null : <ActionButton action={`/admin/users/${u.id}/verify`} label="Verify identity" />}
                    <ActionButton action={`/admin/users/${u.id}/suspend`} label={u.suspended ? "Unsuspend" : "Suspend"} fields={{ suspended: String(!u.suspended) }} danger={!u.suspended} />
                  </span>
                </Cell>
              </tr>
            ))}
          </Table>
          <div className="flex gap-4 text-sm">
            {data.users.page > 0 ? <Link to={`/admin?tab=users&q=${encodeURIComponent(data.q)}&page=${data.users.page - 1}`}>Previous</Link> : null}
            {(data.users.page + 1) * data.users.pageSize < data.users.total ? (
              <Link to={`/admin?tab=users&q=${encodeURIComponent(data.q)}&page=${data.users.page + 1}`}>Next</Link>
            ) : null}
            <span>{data.users.total} players</span>
          </div>
        </section>
      ) : null}

      {data.raffles ? <RaffleList raffles={data.raffles} showEmpty={data.showEmpty} /> : null}

      {data.audit ? <AuditLog view={data.audit} /> : null}

      {data.ledger ? (
        <section aria-label="Ledger reconciliation">
          <Table label="Account totals" head={["Account", "Total"]}>
            {Object.entries(data.ledger.totals).map(([kind, total]) => (
              <tr key={kind}><Cell label="Account">{kind}</Cell><Cell label="Total">{money(total)}</Cell></tr>
            ))}
          </Table>
          <p className={`mt-3 font-bold ${data.ledger.balanced ? "text-emerald-700 dark:text-emerald-400" : "rounded bg-red-700 p-2 text-white"}`} data-testid="ledger-sum">
            Sum of all accounts: {money(data.ledger.sum)} {data.ledger.balanced ? "(balanced)" : "— MISMATCH"}
          </p>
        </section>
      ) : null}
    </main>
  );
}

export const meta: MetaFunction = () => [{ title: "Admin — Raffle Rush" }];

export function ErrorBoundary() {
  return <PageError title="The back office could not be shown" back={{ to: "/admin", label: "Back to the dashboard" }} />;
}
