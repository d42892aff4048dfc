import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { FairAlgorithm } from "~/components/fair-algorithm";
import { LocalTime } from "~/components/local-time";
import { queryParams } from "~/web/http.server";
import { drawsJoinBeacon, listRecentDraws, raffleExists, readRaffleSearch } from "~/services/fairness/fair.server";
import { readPageCursor } from "~/shared/page-cursor";
import { TIER_LABELS } from "~/shared/raffle-display";
import { PageError } from "~/components/route-error";
import { PayoutTimesSection } from "~/components/payout-times";
import { publishedPayoutTimes, type PayoutTimes } from "~/services/money/payout-times.server";
import { receiptPublicKey } from "~/services/fairness/receipts.server";
import { ReceiptKeySection } from "~/components/receipt-key";

/**
 * /fair: how draws are made, the recent draws, and a search by raffle id (a GET form, so
 * it works without JavaScript). Public, like every draw page (PRODUCT.md).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const payoutTimes = await publishedPayoutTimes();
  const beaconJoined = drawsJoinBeacon();
  const receiptKey = receiptPublicKey();
  const params = queryParams(request);
  const q = params.get("q");
  const before = params.get("before");
  const cursor = before ? readPageCursor(before) : undefined;
  if (q !== null && q.trim() !== "") {
    const search = readRaffleSearch(q);
    if ("raffleId" in search && (await raffleExists(search.raffleId))) throw redirect(`/fair/${search.raffleId}`);
    const problem = "problem" in search ? search.problem : `No raffle has the id ${search.raffleId}.`;
    return Response.json({ ...(await listRecentDraws()), payoutTimes, beaconJoined, receiptKey, q, problem }, { status: "problem" in search ? 400 : 404 });
  }
  if (before && !cursor) {
    return Response.json(
      { ...(await listRecentDraws()), payoutTimes, beaconJoined, receiptKey, q: "", problem: "That page of draws does not exist; here are the latest." },
      { status: 400 },
    );
  }
  return Response.json({ ...(await listRecentDraws(cursor)), payoutTimes, beaconJoined, receiptKey, q: "", problem: null });
}

type FairIndexData = Awaited<ReturnType<typeof listRecentDraws>> & {
  payoutTimes: PayoutTimes;
  beaconJoined: boolean;
  receiptKey: string;
  q: string;
  problem: string | null;
};

export default function FairIndex() {
  const data = useLoaderData<typeof loader>() as unknown as FairIndexData;
  return (
    <main className="mx-auto flex max-w-4xl flex-col gap-8 px-4 py-10">
      <div>
        <Link to="/" className="underline">
          Raffle Rush
        </Link>
        <h1 className="mt-4 text-3xl font-bold">Fair draws</h1>
        <p className="mt-2">Every raffle is drawn by commit and reveal: check any draw below, in your browser or with your own code.</p>
      </div>
      {data.beaconJoined ? null : (
        <section aria-labelledby="beacon-off-title" data-testid="beacon-off" className="rounded border border-amber-700 px-4 py-3">
          <h2 id="beacon-off-title" className="text-xl font-bold">
            Draws here are not joined to a beacon
          </h2>
          <p className="mt-1">
            New raffles are committed without a public randomness beacon: the seed alone decides each winner, so whoever holds the seeds could know a winner
            before the draw. Each draw page says whether its draw was joined to one.
          </p>
        </section>
      )}
      <FairAlgorithm />
      <section aria-labelledby="search-title" className="flex flex-col gap-3">
        <h2 id="search-title" className="text-2xl font-bold">
          Find a draw
        </h2>
        <form method="get" action="/fair" className="flex flex-wrap items-end gap-2">
          <label className="flex grow flex-col text-sm font-semibold">
            Raffle id
            <input
              name="q"
              defaultValue={data.q}
              placeholder="6f1c2a34-5b6d-4e7f-8a9b-0c1d2e3f4a5b"
              autoComplete="off"
              spellCheck={false}
              className="rounded border border-line-strong bg-surface px-2 py-2 font-mono text-ink"
              aria-describedby={data.problem ? "search-problem" : undefined}
            />
          </label>
          <button type="submit" className="rounded-md bg-brand-700 px-4 py-2 font-bold text-white">
            Find
          </button>
        </form>
        {data.problem ? (
          <p id="search-problem" role="alert" className="rounded border border-red-700 px-3 py-2 text-red-800 dark:text-red-300">
            {data.problem}
          </p>
        ) : null}
      </section>
      <section aria-labelledby="recent-title" className="flex flex-col gap-3">
        <h2 id="recent-title" className="text-2xl font-bold">
          Recent draws
        </h2>
        <p className="text-sm text-ink-muted">
          Times are in your time zone once the page has loaded; hover for UTC. Rounds cancelled for want of a second player were refunded, not drawn, and can be
          found by id.
        </p>
        {data.draws.length === 0 ? (
          <p>No raffle has been drawn yet.</p>
        ) : (
          <div className="overflow-x-auto">
            <table className="w-full text-left text-sm">
              <thead>
                <tr className="border-b border-line-strong">
                  <th scope="col" className="py-2 pr-3">
                    Raffle
                  </th>
                  <th scope="col" className="py-2 pr-3">
                    Drawn
                  </th>
                  <th scope="col" className="py-2 pr-3 text-right">
                    Tickets
                  </th>
                  <th scope="col" className="py-2 text-right">
                    Pot
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.draws.map((draw) => (
                  <tr key={draw.raffleId} className="border-b border-line" data-testid="recent-draw">
                    <td className="py-2 pr-3">
                      <a className="underline" href={`/fair/${draw.raffleId}`}>
                        {draw.kind === "quick" ? `${draw.tier.toUpperCase()} quick` : (TIER_LABELS[draw.tier] ?? draw.tier)} · ${draw.entryPrice}
                      </a>
                      <span className="block font-mono text-xs break-all text-ink-muted">{draw.raffleId}</span>
                    </td>
                    <td className="py-2 pr-3">
                      <LocalTime at={draw.drawnAt} />
                      {draw.completedEarly ? <span className="block text-xs">completed early</span> : null}
                    </td>
                    <td className="py-2 pr-3 text-right">{draw.ticketCount}</td>
                    <td className="py-2 text-right">{draw.pot === null ? "—" : `$${draw.pot}`}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {data.nextCursor ? (
          <a className="self-start underline" href={`/fair?before=${encodeURIComponent(data.nextCursor)}`}>
            Older draws
          </a>
        ) : null}
      </section>
      <PayoutTimesSection times={data.payoutTimes} />
      <ReceiptKeySection publicKey={data.receiptKey} />
    </main>
  );
}

export const meta: MetaFunction = () => [{ title: "Fair draws — Raffle Rush" }];

export function ErrorBoundary() {
  return <PageError title="The fair draws could not be shown" />;
}
