import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { getOptionalUser } from "~/services/auth.server";
import { getFairDraw } from "~/services/fair.server";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function loader({ request, params }: LoaderFunctionArgs) {
  if (!params.id || !UUID.test(params.id)) throw new Response("Not Found", { status: 404 });
  const draw = await getFairDraw(params.id.toLowerCase(), (await getOptionalUser(request))?.id);
  if (!draw) throw new Response("Not Found", { status: 404 });
  return draw;
}

function Row({ label, value }: { label: string; value: string | number | null }) {
  return (
    <div className="grid gap-1 border-b border-slate-200 py-2 sm:grid-cols-[12rem_1fr] dark:border-slate-800">
      <dt className="font-semibold">{label}</dt>
      <dd className="font-mono text-sm break-all">{value ?? "—"}</dd>
    </div>
  );
}

export default function FairDrawPage() {
  const draw = useLoaderData<typeof loader>();
  return (
    <main className="mx-auto max-w-3xl px-4 py-10">
      <Link to="/" className="underline">Raffle Rush</Link>
      <h1 className="mt-4 text-3xl font-bold">Fair draw: {draw.tier} raffle</h1>
      <p className="mt-2">
        Every draw is committed before the raffle opens and can be recomputed by anyone. Download the{" "}
        <a className="underline" href={`/api/fair/${draw.raffleId}`}>public JSON</a> and check it with the published algorithm.
      </p>
      <dl className="mt-6">
        <Row label="Status" value={draw.status} />
        <Row label="Entry price" value={`$${draw.entryPrice}`} />
        <Row label="Ends" value={draw.endTime} />
        <Row label="Seed hash (commitment)" value={draw.seedHash} />
        <Row label="Tickets" value={draw.ticketCount} />
        {draw.revealed ? (
          <>
            <Row label="Seed (revealed)" value={draw.seed} />
            <Row label="Seed matches commitment" value={draw.seedMatchesCommitment ? "yes" : "NO"} />
            <Row label="Merkle root" value={draw.merkleRoot} />
            <Row label="Winning ticket" value={draw.winningTicket} />
            <Row label="Our recomputation" value={draw.recomputedWinningTicket} />
            <Row label="Winner" value={draw.winner} />
            <Row label="Prize" value={draw.prize ? `$${draw.prize}` : null} />
          </>
        ) : (
          <p className="mt-4">The seed is revealed right after the draw.</p>
        )}
      </dl>
      {draw.myTickets.length > 0 ? (
        <section className="mt-8">
          <h2 className="text-xl font-bold">Your tickets</h2>
          <ul className="mt-2 space-y-2">
            {draw.myTickets.map((t) => (
              <li key={t.ticketId} className="font-mono text-sm break-all">
                #{t.position} {t.ticketId}
                {"verified" in t ? ` — inclusion proof ${t.verified ? "verified" : "FAILED"} (${t.proof.length} hashes)` : ""}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </main>
  );
}

export const meta: MetaFunction = () => [{ title: "Fair draw — Raffle Rush" }];
