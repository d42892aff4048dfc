import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, NavLink, Outlet, useLoaderData, useLocation, useRevalidator } from "@remix-run/react";
import { useEffect } from "react";
import { ADMIN_TABS } from "~/components/admin-tabs";
import { RevenueChart } from "~/components/revenue-chart";
import { dashboard } from "~/services/back-office/admin.server";
import { requireAdmin } from "~/web/auth.server";
import { formatDecimalDollars as money } from "~/shared/money";
import { REVENUE_PERIODS, type RevenuePeriod } from "~/shared/revenue-periods";
import { revenueOverTime } from "~/services/back-office/revenue.server";
import { PageError } from "~/components/route-error";

const PERIODS = Object.keys(REVENUE_PERIODS) as RevenuePeriod[];

/**
 * The back office's layout: the overview and the revenue chart on every tab; each
 * tab (/admin/payouts, /admin/users...) is a nested route that loads its own data, in
 * parallel with this loader. It reads only `revenue`, one of three periods (anything else
 * is the daily chart), so a bad query is refused by the tab that reads it, under this page.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const asked = new URL(request.url).searchParams.get("revenue");
  const [{ overview, liabilities, revenue }, chart] = await Promise.all([dashboard(), revenueOverTime(PERIODS.find((p) => p === asked) ?? "daily")]);
  return { overview, liabilities, revenue, chart };
}

/** The same tab, its other parameters kept, with the chart's period set. */
function withPeriod(location: { pathname: string; search: string }, period: RevenuePeriod) {
  const params = new URLSearchParams(location.search);
  params.set("revenue", period);
  return `${location.pathname}?${params}`;
}

/** Revenue over time (daily, weekly, monthly): links that work without JavaScript, the chart drawn on the server. */
function Revenue({ chart }: { chart: Awaited<ReturnType<typeof revenueOverTime>> }) {
  const location = useLocation();
  return (
    <section aria-label="Revenue over time" className="flex flex-col gap-2">
      <nav aria-label="Revenue period" className="flex gap-3 text-sm">
        {PERIODS.map((p) => (
          <Link
            key={p}
            to={withPeriod(location, p)}
            aria-current={p === chart.period ? "page" : undefined}
            className={`capitalize underline ${p === chart.period ? "font-bold" : ""}`}
          >
            {p}
          </Link>
        ))}
      </nav>
      <RevenueChart period={chart.period} points={chart.points} />
    </section>
  );
}

export default function Admin() {
  const { overview, liabilities, revenue, chart } = useLoaderData<typeof loader>();
  const { revalidate } = useRevalidator();
  const location = useLocation();
  // The figures and the open tab (both loaders) stay current while the page is open.
  useEffect(() => {
    const timer = setInterval(revalidate, 30_000);
    return () => clearInterval(timer);
  }, [revalidate]);
  return (
    <main className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-8">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-3xl font-bold">Admin dashboard</h1>
        <div className="flex gap-4 text-sm">
          <Link to={`${location.pathname}${location.search}`} className="underline">
            Refresh
          </Link>
          <Link to="/" className="underline">
            Back to Site
          </Link>
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
          <div key={label} className="min-w-0 rounded-lg border border-line p-3">
            <dt className="text-xs">{label}</dt>
            <dd className="text-xl font-bold break-words" data-testid="overview-value">
              {value}
            </dd>
          </div>
        ))}
      </dl>
      <Revenue chart={chart} />
      <nav aria-label="Admin sections" className="flex flex-wrap gap-2 border-b border-line pb-2">
        {ADMIN_TABS.map((t) => (
          // NavLink marks the open tab with aria-current="page", on the server too (no JavaScript needed).
          <NavLink key={t} to={`/admin/${t}`} className={({ isActive }) => `rounded px-3 py-1 capitalize ${isActive ? "bg-ink text-canvas" : ""}`}>
            {t}
          </NavLink>
        ))}
      </nav>
      <Outlet />
    </main>
  );
}

export const meta: MetaFunction = () => [{ title: "Admin — Raffle Rush" }];

export function ErrorBoundary() {
  return <PageError title="The back office could not be shown" back={{ to: "/admin", label: "Back to the dashboard" }} />;
}
