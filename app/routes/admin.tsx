import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useRevalidator } from "@remix-run/react";
import { useEffect } from "react";
import { ActionButton, Cell, Table, TextAction } from "~/components/admin-tabs";
import { auditView, dashboard, listRafflesForAdmin, listUsers, reconciliation, listTransfersAwaitingReference } from "~/services/admin.server";
import { requireAdmin } from "~/services/auth.server";
import { queryParams } from "~/services/http.server";
import { BREAKS, EXCLUSIONS } from "~/services/responsible-play-options";
import { utcMinute } from "~/services/dates";

const TABS = ["payouts", "users", "raffles", "audit", "ledger"] as const;
type Tab = (typeof TABS)[number];

/** The back office: overview and revenue on every tab; one tab's data at a time. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const params = queryParams(request);
  const tab: Tab = TABS.find((t) => t === params.get("tab")) ?? "payouts";
  const q = (params.get("q") ?? "").slice(0, 100);
  const page = Math.max(0, Number.parseInt(params.get("page") ?? "0", 10) || 0);
  const [overview, users, raffles, audit, ledger] = await Promise.all([
    dashboard(),
    tab === "users" ? listUsers(q, page) : null,
    tab === "raffles" ? listRafflesForAdmin() : null,
    tab === "audit" ? auditView() : null,
    tab === "ledger" ? reconciliation() : null,
  ]);
  const transfers = tab === "payouts" ? await listTransfersAwaitingReference() : null;
  return { tab, q, overview, users, raffles, audit, ledger, transfers };
}

function Bars({ revenue }: { revenue: Record<string, string> }) {
  const values = Object.entries(revenue);
  const max = Math.max(1, ...values.map(([, v]) => Number(v)));
  return (
    <figure aria-label="Revenue from card payments, coins and VIP, less refunds and disputes" className="flex items-end gap-4">
      {values.map(([label, value]) => (
        <div key={label} className="flex flex-col items-center gap-1 text-xs">
          <span>${value}</span>
          <span aria-hidden="true" className="w-10 rounded-t bg-brand-700" style={{ height: `${Math.max(4, (Number(value) / max) * 80)}px` }} />
          <span className="capitalize">{label}</span>
        </div>
      ))}
    </figure>
  );
}

export default function Admin() {
  const data = useLoaderData<typeof loader>();
  const { revalidate } = useRevalidator();
  useEffect(() => {
    const timer = setInterval(revalidate, 30_000);
    return () => clearInterval(timer);
  }, [revalidate]);
  const { overview, liabilities, revenue, payouts } = data.overview;
  return (
    <main className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-8">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-3xl font-bold">Admin dashboard</h1>
        <div className="flex gap-4 text-sm">
          <Link to={`/admin?tab=${data.tab}`} className="underline">Refresh</Link>
          <Link to="/" className="underline">Back to Site</Link>
        </div>
      </div>
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4" data-testid="overview">
        {[
          ["Players", overview.totalUsers],
          ["Active raffles", overview.activeRaffles],
          ["Revenue (card payments, coins and VIP, less refunds and disputes)", `$${overview.totalRevenue}`],
          ["Paid out", `$${overview.totalPayouts}`],
          ["Profit (revenue − paid out)", `$${overview.totalProfits}`],
          ["Owed: players' cash (withdrawable, held included)", `$${liabilities.playerCash}`],
          ["Held for withdrawals", `$${liabilities.heldForWithdrawals}`],
          ["Players' bonus coins (play only)", `${liabilities.playerBonusCoins.toLocaleString("en-US")} coins`],
        ].map(([label, value]) => (
          <div key={label} className="rounded-lg border border-slate-200 p-3 dark:border-slate-800">
            <dt className="text-xs">{label}</dt>
            <dd className="text-xl font-bold">{value}</dd>
          </div>
        ))}
      </dl>
      <Bars revenue={revenue} />
      <nav aria-label="Admin sections" className="flex flex-wrap gap-2 border-b border-slate-200 pb-2 dark:border-slate-800">
        {TABS.map((t) => (
          <Link key={t} to={`/admin?tab=${t}`} aria-current={t === data.tab ? "page" : undefined} className={`rounded px-3 py-1 capitalize ${t === data.tab ? "bg-slate-900 text-white dark:bg-slate-100 dark:text-slate-900" : ""}`}>
            {t}
          </Link>
        ))}
      </nav>

      {data.tab === "payouts" ? (
        <section aria-label="Payouts" className="flex flex-col gap-3">
          <p>Pending: {payouts.pending.length} · ${payouts.pendingAmount}</p>
          <div className="flex gap-2">
            <ActionButton action="/api/admin/payouts/bulk-approve" label="Auto-approve up to $50" fields={{ maxAmount: "50" }} />
            <ActionButton action="/api/admin/payouts/bulk-approve" label="Auto-approve up to $100" fields={{ maxAmount: "100" }} />
          </div>
          <Table label="Pending payouts" head={["Player", "Amount", "Method", "Age", "Notes", ""]}>
            {payouts.pending.map((p) => (
              <tr key={p.id} data-testid="payout">
                <Cell>{p.player}</Cell>
                <Cell>${p.amount}</Cell>
                <Cell>{p.destination}</Cell>
                <Cell>{p.ageMinutes} min</Cell>
                <Cell>
                  {p.blocked ? <strong className="text-red-700 dark:text-red-400" data-testid="payout-blocked">{p.blocked}: not payable. </strong> : null}
                  {p.requiresVerification ? "Identity verification required. " : ""}
                  {p.awaitingSecondApproval ? "Awaiting a second approval." : ""}
                </Cell>
                <Cell>
                  <span className="flex gap-1">
                    <ActionButton action={`/api/admin/payouts/${p.id}/approve`} label="Approve" />
                    <ActionButton action={`/api/admin/payouts/${p.id}/reject`} label="Reject" fields={{ reason: "Admin review" }} danger />
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
                <Cell>{t.player}</Cell>
                <Cell>${t.amount}</Cell>
                <Cell>{t.destination}</Cell>
                <Cell>{t.ageMinutes} min</Cell>
                <Cell>{t.blocked ? <strong className="text-red-700 dark:text-red-400">{t.blocked}: not payable.</strong> : null}</Cell>
                <Cell>
                  <span className="flex flex-col gap-1">
                    <TextAction action={`/api/admin/payouts/${t.withdrawalId}/transfer`} name="reference" label="Reference" button="Record sent" />
                    <TextAction action={`/api/admin/payouts/${t.withdrawalId}/transfer`} name="failure" label="Reason" button="Record failed" danger />
                  </span>
                </Cell>
              </tr>
            ))}
          </Table>
        </section>
      ) : null}

      {data.users ? (
        <section aria-label="Users" className="flex flex-col gap-3">
          <form method="get" className="flex gap-2">
            <input type="hidden" name="tab" value="users" />
            <label className="flex items-center gap-2">Search <input name="q" defaultValue={data.q} className="rounded border bg-white px-2 py-1 text-slate-900 dark:bg-slate-900 dark:text-slate-100" /></label>
            <button type="submit" className="rounded border px-3">Search</button>
          </form>
          <Table label="Players" head={["Player", "Balance", "Winnings", "VIP", "Status", "Protections (set by the player)", ""]}>
            {data.users.users.map((u) => (
              <tr key={u.id}>
                <Cell>{u.username ?? "—"}<span className="block text-xs">{u.email}</span></Cell>
                <Cell>{u.coinBalance.toLocaleString("en-US")}</Cell>
                <Cell>{u.totalWinnings.toLocaleString("en-US")}</Cell>
                <Cell>{u.vipTier ?? "—"}</Cell>
                <Cell>{[u.suspended ? "suspended" : "active", u.identityVerified ? "verified" : "unverified", u.flagged ? `flagged: ${u.flagged}` : "", u.residence ?? "", u.playClosed ? "place not served: play and buying closed" : ""].filter(Boolean).join(" · ")}</Cell>
                <Cell>
                  <span className="flex flex-col gap-1 text-xs" data-testid="player-protections">
                    {u.exclusion ? (
                      <strong>{u.exclusion.kind === "self_exclusion" ? "Self-excluded" : "On a break"} until {utcMinute(u.exclusion.until)}</strong>
                    ) : null}
                    {u.limits.map((l) => (
                      <span key={l.period}>
                        {l.period} limit: {l.amount === null ? "none" : `$${l.amount}`}
                        {l.pending ? ` (pending ${l.pending.amount === null ? "removal" : `$${l.pending.amount}`} from ${utcMinute(l.pending.from)})` : ""}
                      </span>
                    ))}
                    {u.realityCheckMinutes ? <span>Reality check every {u.realityCheckMinutes} min</span> : null}
                    {!u.exclusion && u.limits.length === 0 && !u.realityCheckMinutes ? <span>—</span> : null}
                    {u.exclusion ? (
                      <form method="post" action={`/api/admin/users/${u.id}/exclusion`} className="flex gap-1">
                        <label className="sr-only" htmlFor={`extend-${u.id}`}>Extend to</label>
                        <select id={`extend-${u.id}`} name="choice" defaultValue="6m" className="rounded border bg-white px-1 text-slate-900 dark:bg-slate-900 dark:text-slate-100">
                          {Object.keys(BREAKS).map((k) => <option key={k} value={k}>{k} from now</option>)}
                          {Object.keys(EXCLUSIONS).map((k) => <option key={k} value={k}>{k} exclusion from now</option>)}
                        </select>
                        <button type="submit" className="rounded border px-2">Extend</button>
                      </form>
                    ) : null}
                  </span>
                </Cell>
                <Cell>
                  <span className="flex gap-1">
                    {u.identityVerified ? null : <ActionButton action={`/api/admin/users/${u.id}/verify`} label="Verify identity" />}
                    <ActionButton action={`/api/admin/users/${u.id}/suspend`} label={u.suspended ? "Unsuspend" : "Suspend"} fields={{ suspended: String(!u.suspended) }} danger={!u.suspended} />
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

      {data.raffles ? (
        <Table label="Raffles" head={["Raffle", "Status", "Pot", "Tickets", "Players", "Ends", ""]}>
          {data.raffles.map((r) => (
            <tr key={r.id} data-testid="admin-raffle">
              <Cell>{r.kind} {r.tier} ${r.entryPrice}</Cell>
              <Cell>{r.status}{r.winner ? ` · ${r.winner} won $${r.prize}` : ""}</Cell>
              <Cell>${r.currentPot}</Cell>
              <Cell>{r.tickets}</Cell>
              <Cell>{r.players}</Cell>
              <Cell>{r.endTime.slice(11, 19)}</Cell>
              <Cell>{r.status === "active" ? <ActionButton action={`/api/admin/raffles/${r.id}/complete`} label="Complete now" /> : null}</Cell>
            </tr>
          ))}
        </Table>
      ) : null}

      {data.audit ? (
        <Table label="Audit log" head={["When", "Who", "What", "Target", "Details"]}>
          {data.audit.map((e) => (
            <tr key={e.id} data-testid="audit-event">
              <Cell>{e.createdAt.slice(0, 19).replace("T", " ")}</Cell>
              <Cell>{e.actor.slice(0, 8)}</Cell>
              <Cell>{e.action}</Cell>
              <Cell>{e.target}</Cell>
              <Cell><code className="text-xs break-all">{JSON.stringify(e.details)}</code></Cell>
            </tr>
          ))}
        </Table>
      ) : null}

      {data.ledger ? (
        <section aria-label="Ledger reconciliation">
          <Table label="Account totals" head={["Account", "Total"]}>
            {Object.entries(data.ledger.totals).map(([kind, total]) => (
              <tr key={kind}><Cell>{kind}</Cell><Cell>${total}</Cell></tr>
            ))}
          </Table>
          <p className={`mt-3 font-bold ${data.ledger.balanced ? "text-emerald-700 dark:text-emerald-400" : "rounded bg-red-700 p-2 text-white"}`} data-testid="ledger-sum">
            Sum of all accounts: ${data.ledger.sum} {data.ledger.balanced ? "(balanced)" : "— MISMATCH"}
          </p>
        </section>
      ) : null}
    </main>
  );
}

export const meta: MetaFunction = () => [{ title: "Admin — Raffle Rush" }];
