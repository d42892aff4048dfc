import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import { DemoMark } from "~/components/demo-mark";
import { DrawCheck } from "~/components/draw-check";
import { LocalTime } from "~/components/local-time";
import { getOptionalUser } from "~/web/auth.server";
import { getFairDraw } from "~/services/fairness/fair.server";
import { PageError } from "~/components/route-error";
import { UUID } from "~/shared/uuid";

export async function loader({ request, params }: LoaderFunctionArgs) {
  if (!params.id || !UUID.test(params.id)) throw new Response("Not Found", { status: 404 });
  const draw = await getFairDraw(params.id.toLowerCase(), (await getOptionalUser(request))?.id);
  if (!draw) throw new Response("Not Found", { status: 404 });
  return draw;
}

function Row({ label, value, mono = true }: { label: string; value: ReactNode; mono?: boolean }) {
  return (
    <div className="grid gap-1 border-b border-line py-2 sm:grid-cols-[12rem_1fr]">
      <dt className="font-semibold">{label}</dt>
      <dd className={mono ? "font-mono text-sm break-all" : ""}>{value ?? "—"}</dd>
    </div>
  );
}

// Worded for every reader: a player on a break reads this page too, and no page invites play then.
const STATUS = {
  active: "Open until its scheduled end; not drawn yet",
  completed: "Drawn",
  cancelled: "Cancelled: fewer than two players, every ticket refunded",
} as const;

const EARLY = {
  completed: "Drawn early: an admin completed it before its scheduled end",
  cancelled: "Cancelled early: an admin completed it with fewer than two players; every ticket refunded",
} as const;

/** A cancelled draw names its own reason: fewer than two players, or a beacon round not had in time. */
function cancelled(reason: string | null, early: boolean): string {
  if (!reason || reason === "fewer than two players") return early ? EARLY.cancelled : STATUS.cancelled;
  return `Cancelled${early ? " early" : ""}: ${reason}; every ticket refunded`;
}

/** An active raffle past its end, or closed early: what it waits for. */
function waiting(draw: { closedEarly: object | null; beacon: { round: number } | null }): string {
  const what = draw.beacon ? `waiting for drand round ${draw.beacon.round}, the first after ${draw.closedEarly ? "the close" : "its end"}` : "being drawn";
  return draw.closedEarly ? `Closed early by an admin: no more entries; ${what}` : `Ended: ${what}`;
}

export default function FairDrawPage() {
  const draw = useLoaderData<typeof loader>();
  // An admin may complete a raffle early: then it ended when it was drawn, before its scheduled end.
  const early = draw.revealed && (draw.closedEarly !== null || (draw.drawnAt !== null && draw.drawnAt < draw.endTime));
  const status =
    draw.revealed && draw.status === "cancelled"
      ? cancelled(draw.cancelReason, early)
      : early
        ? EARLY.completed
        : draw.drawing || draw.closedEarly
          ? waiting(draw)
          : STATUS[draw.status];
  return (
    <main className="mx-auto max-w-3xl px-4 py-10">
      <nav aria-label="Breadcrumb" className="flex gap-2">
        <Link to="/" className="underline">
          Raffle Rush
        </Link>{" "}
        ›{" "}
        <Link to="/fair" className="underline">
          Fair draws
        </Link>
      </nav>
      <h1 className="mt-4 text-3xl font-bold">Fair draw: {draw.tier} raffle</h1>
      <p className="mt-2">
        Every draw is committed before the raffle opens and can be recomputed by anyone (
        <Link className="underline" to="/fair">
          how
        </Link>
        ). Download the{" "}
        <a className="underline" href={`/api/fair/${draw.raffleId}`}>
          public JSON
        </a>{" "}
        and check it with the published algorithm, or let this page check it below.
      </p>
      <p className="mt-2 text-sm text-ink-muted">Times are in your time zone once the page has loaded; hover for UTC.</p>
      <dl className="mt-6">
        <Row label="Raffle id" value={draw.raffleId} />
        <Row label="Status" value={<span data-testid="draw-status">{status}</span>} mono={false} />
        <Row label="Entry price" value={`$${draw.entryPrice}`} />
        <Row label="Opened" value={<LocalTime at={draw.startTime} />} mono={false} />
        {draw.closedEarly ? (
          <>
            <Row label="Scheduled end" value={<LocalTime at={draw.closedEarly.scheduledEndTime} testId="scheduled-end" />} mono={false} />
            <Row label="Closed early at" value={<LocalTime at={draw.closedEarly.closedAt} testId="closed-at" />} mono={false} />
          </>
        ) : (
          <Row label={draw.status === "active" ? "Ends" : "Scheduled end"} value={<LocalTime at={draw.endTime} testId="scheduled-end" />} mono={false} />
        )}
        {draw.revealed && draw.drawnAt ? (
          <Row label={draw.status === "cancelled" ? "Cancelled at" : "Drawn at"} value={<LocalTime at={draw.drawnAt} testId="drawn-at" />} mono={false} />
        ) : null}
        <Row label="Seed hash (commitment)" value={draw.seedHash} />
        <Row
          label="Beacon (commitment)"
          value={
            draw.beacon ? (
              <>
                {`drand round ${draw.beacon.round} (chain ${draw.beacon.chainHash.slice(0, 16)}…), due `}
                <LocalTime at={draw.beacon.roundTime} />
              </>
            ) : (
              <span data-testid="no-beacon">Not joined to a beacon: the seed alone decides the winner.</span>
            )
          }
          mono={false}
        />
        <Row label="Tickets" value={draw.ticketCount} />
        {draw.revealed ? (
          <>
            <Row label="Seed (revealed)" value={draw.seed} />
            <Row label="Merkle root" value={draw.merkleRoot} />
            <Row label="Winning ticket" value={draw.winningTicket} />
            <Row
              label="Winner"
              value={
                draw.winner ? (
                  <>
                    {draw.winner}
                    <DemoMark isDemo={draw.winnerIsDemo} />
                  </>
                ) : null
              }
              mono={false}
            />
            <Row label="Pot" value={draw.pot ? `$${draw.pot}` : null} />
            <Row label="Prize" value={draw.prize ? `$${draw.prize}` : null} />
          </>
        ) : null}
      </dl>
      {draw.revealed ? null : <p className="mt-4">The seed is revealed right after the draw; this page checks the draw then.</p>}
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
      <DrawCheck raffleId={draw.raffleId} />
    </main>
  );
}

export const meta: MetaFunction = () => [{ title: "Fair draw — Raffle Rush" }];

export function ErrorBoundary() {
  return (
    <PageError
      title="This draw could not be shown"
      back={{ to: "/fair", label: "Back to fair draws" }}
      statuses={{
        404: { title: "Draw not found", message: "No raffle has that id. Check the id in the link, or find the draw from the list of recent draws." },
      }}
    />
  );
}
