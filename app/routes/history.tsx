import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { PlayerShell } from "~/components/player-shell";
import { inputClass } from "~/components/form-fields";
import { requireUser } from "~/web/auth.server";
import { readHistoryFilter, HISTORY_TYPES, playerHistory, type HistoryRow } from "~/services/money/history.server";
import { queryParams } from "~/web/http.server";
import { useUser } from "~/components/use-root-data";
import { PageError } from "~/components/route-error";

/** The player's full record (/history.csv downloads the same rows). Works without JavaScript (a GET form). */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const history = await playerHistory(user.id, readHistoryFilter(queryParams(request)));
  // A date that is not a real day: the page says so, with the default period, as a 400.
  return Response.json({ ...history, types: Object.keys(HISTORY_TYPES) }, { status: history.problem ? 400 : 200 });
}

export default function History() {
  const data = useLoaderData<typeof loader>() as Awaited<ReturnType<typeof playerHistory>> & { types: string[] };
  const user = useUser();
  // The filters shown, and the page's place when asked for.
  const query = (before?: string) => new URLSearchParams({ ...data.filter, ...(before ? { before } : {}) }).toString();
  return (
    <PlayerShell>
      <main className="mx-auto flex max-w-4xl flex-col gap-6 px-4 py-8">
        <h1 className="text-3xl font-black">History</h1>
        <p data-testid="balance-split">
          Your coins: <strong>{user.cashBalance.toLocaleString("en-US")} cash</strong> (money you paid in or won; withdrawable) and{" "}
          <strong>{user.bonusBalance.toLocaleString("en-US")} bonus</strong> (given by us; for play only, never withdrawn). Entries spend bonus coins first.
        </p>
        <dl className="grid grid-cols-3 gap-3 text-center" data-testid="history-totals">
          <div>
            <dt className="text-xs">Bought (charged, less refunds)</dt>
            <dd className="text-xl font-bold">${data.totals.bought}</dd>
            {data.totals.bought !== data.totals.charged ? (
              <dd className="text-xs">
                ${data.totals.charged} charged · ${data.totals.refunded} refunded · ${data.totals.disputed} disputed
              </dd>
            ) : null}
          </div>
          <div>
            <dt className="text-xs">Withdrawn (paid out)</dt>
            <dd className="text-xl font-bold">${data.totals.withdrawn}</dd>
          </div>
          <div>
            <dt className="text-xs">Net deposits</dt>
            <dd className="text-xl font-bold">${data.totals.netDeposits}</dd>
          </div>
        </dl>
        {data.problem ? (
          <p role="alert" className="rounded border border-red-700 px-3 py-2 text-red-800 dark:text-red-300">
            {data.problem}
          </p>
        ) : null}
        <form method="get" className="flex flex-wrap items-end gap-3">
          <label className="flex flex-col gap-1 text-sm font-semibold">
            Type
            <select name="type" defaultValue={data.filter.type} className={`${inputClass} font-normal`}>
              <option value="">All</option>
              {data.types.map((t) => (
                <option key={t} value={t} className="capitalize">
                  {t}
                </option>
              ))}
            </select>
          </label>
          <label className="flex flex-col gap-1 text-sm font-semibold">
            From
            <input type="date" name="from" defaultValue={data.filter.from} className={`${inputClass} font-normal`} />
          </label>
          <label className="flex flex-col gap-1 text-sm font-semibold">
            To
            <input type="date" name="to" defaultValue={data.filter.to} className={`${inputClass} font-normal`} />
          </label>
          <button type="submit" className="rounded-md border border-line-strong px-4">
            Show
          </button>
          <a href={`/history.csv?${query()}`} className="inline-flex min-h-11 items-center underline">
            Download CSV
          </a>
        </form>
        {data.olderThan ? (
          <PageLink note={`Older movements, from ${data.olderThan.slice(0, 16).replace("T", " ")} (UTC) back.`} to={`/history?${query()}`}>
            Newest movements
          </PageLink>
        ) : null}
        {data.rows.length === 0 ? (
          <p>No movements in this period.</p>
        ) : (
          <table className="w-full text-sm">
            <thead>
              <tr className="text-left">
                <th className="py-1">Date (UTC)</th>
                <th>Type</th>
                <th className="text-right">Money</th>
                <th className="text-right">Coins</th>
                <th />
              </tr>
            </thead>
            <tbody className="divide-y divide-line">
              {data.rows.map((r) => (
                <tr key={r.id} data-testid="history-row">
                  <td className="py-1">{r.date.slice(0, 16).replace("T", " ")}</td>
                  <td>
                    {r.type}
                    {r.withdrawal ? (
                      <span className="block text-xs text-ink-muted" data-testid="history-withdrawal">
                        {r.withdrawal}
                      </span>
                    ) : null}
                  </td>
                  <td className="text-right" data-testid="history-money">
                    {money(r)}
                  </td>
                  <td
                    className={`text-right font-mono text-xs ${r.coins < 0 ? "text-red-700 dark:text-red-400" : "text-emerald-700 dark:text-emerald-400"}`}
                    data-testid="history-coins"
                  >
                    {coins(r)}
                  </td>
                  <td className="text-right">
                    {r.receiptId ? (
                      <Link to={`/receipts/${r.receiptId}`} className="mr-3 inline-flex min-h-6 items-center underline" data-testid="history-receipt">
                        receipt
                      </Link>
                    ) : null}
                    {r.raffleId ? (
                      <Link to={`/fair/${r.raffleId}`} className="inline-flex min-h-6 items-center underline">
                        fair draw
                      </Link>
                    ) : null}
                    <ComplainLink row={r} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {data.older ? (
          <PageLink
            note={`The newest ${data.rows.length} of this period (the CSV holds them all).`}
            to={`/history?${query(data.older)}`}
            testId="history-older"
          >
            Older movements
          </PageLink>
        ) : null}
      </main>
    </PlayerShell>
  );
}

/** A line between pages of the history: where this page stands, and a link to the next. */
function PageLink({ note, to, testId, children }: { note: string; to: string; testId?: string; children: string }) {
  return (
    <p className="flex flex-wrap items-center gap-x-4 text-sm">
      <span>{note}</span>
      <Link to={to} className="inline-flex min-h-11 items-center font-semibold underline" data-testid={testId}>
        {children}
      </Link>
    </p>
  );
}

/** A complaint about the row's draw or withdrawal, the form filled in with it (docs/decisions/081-complaints.md). */
function ComplainLink({ row }: { row: HistoryRow }) {
  const about = row.raffleId ? { subject: "draw", reference: row.raffleId } : row.withdrawalId ? { subject: "payout", reference: row.withdrawalId } : null;
  if (!about) return null;
  return (
    <Link to={`/complaints/new?${new URLSearchParams(about)}`} className="ml-2 inline-flex min-h-6 items-center underline" data-testid="history-complain">
      complain
    </Link>
  );
}

/** Dollars that moved on the player's card: a purchase's charge (and what was refunded of it since), or the purchase a refund took from. */
function money(r: HistoryRow): string {
  if (r.charged) return `$${r.charged} charged${r.refunded ? ` · $${r.refunded} refunded since` : ""}`;
  if (r.ofPurchase) return `of a $${r.ofPurchase} purchase`;
  return "";
}

/** Coins, never as dollars: "+2,499 cash · +2,501 bonus coins". */
function coins(r: HistoryRow): string {
  const parts = [r.cash !== 0 ? `${signed(r.cash)} cash` : "", r.bonus !== 0 ? `${signed(r.bonus)} bonus` : ""].filter(Boolean);
  return parts.length === 0 ? "no coins" : `${parts.join(" · ")} coins`;
}

function signed(coins: number): string {
  return coins < 0 ? `−${(-coins).toLocaleString("en-US")}` : `+${coins.toLocaleString("en-US")}`;
}

export const meta: MetaFunction = () => [{ title: "History — Raffle Rush" }];

export function ErrorBoundary() {
  return <PageError title="Your history could not be shown" />;
}
