import { redirect, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import { LocalTime } from "~/components/local-time";
import { PlayerShell } from "~/components/player-shell";
import { PageError } from "~/components/route-error";
import { raffleTier, TierChip } from "~/components/tiers";
import { getReceipt, type Receipt } from "~/services/fairness/receipts.server";
import { requireUser } from "~/web/auth.server";
import { UUID } from "~/shared/uuid";

/**
 * A player's receipt for one of their tickets (ADR 079). Its signed JSON, to check offline
 * with `node scripts/verify-draw.mjs --receipt`, is the resource route
 * `/receipts/<id>/receipt.json`; `/receipts/<id>.json` and `?format=json` lead there.
 * Another player's ticket, or an id that is no ticket, is 404 (not 403): a receipt's
 * existence is nobody else's business.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const raw = params.id ?? "";
  const id = raw.replace(/\.json$/, "").toLowerCase();
  const receipt = UUID.test(id) ? await getReceipt(user.id, id) : undefined;
  if (!receipt) throw new Response("Not Found", { status: 404 });
  if (id !== raw.toLowerCase() || new URL(request.url).searchParams.get("format") === "json") throw redirect(receipt.links.json);
  return Response.json(receipt, { headers: { "Cache-Control": "private, no-store" } });
}

function Row({ label, value, mono = false, testId }: { label: string; value: ReactNode; mono?: boolean; testId?: string }) {
  return (
    <div className="grid gap-1 border-b border-line py-2 sm:grid-cols-[12rem_1fr]">
      <dt className="font-semibold text-ink-muted">{label}</dt>
      <dd className={mono ? "font-mono text-sm break-all" : ""} data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

const STATUS: Record<Receipt["status"], string> = {
  open: "Open: entries are being taken; the draw follows the end.",
  drawing: "Closed: waiting for the beacon round, then the draw.",
  drawn: "Drawn",
  cancelled: "Cancelled and refunded: there was no draw.",
};

function Result({ receipt }: { receipt: Receipt }) {
  const draw = receipt.draw;
  if (!draw) return <>Not drawn yet. This receipt adds the result, the winning ticket and the proof against the final ticket list after the draw.</>;
  if (draw.result === "cancelled") return <>Cancelled ({draw.reason}); every ticket was refunded.</>;
  if (draw.result === "won") return <strong className="text-win">You won{draw.prize !== null ? ` ${draw.prize.toLocaleString("en-US")} coins` : ""}.</strong>;
  return <>Not a winner this time: the winning ticket was #{draw.winningTicket}.</>;
}

export default function ReceiptPage() {
  const receipt = useLoaderData<typeof loader>() as Receipt;
  const tier = raffleTier(receipt.raffle.tier, receipt.raffle.kind === "quick" ? "quick" : "regular");
  const beacon = receipt.commitment.beacon;
  const draw = receipt.draw;
  return (
    <PlayerShell>
      <main className="mx-auto flex max-w-3xl flex-col gap-6 px-4 py-8">
        <nav aria-label="Breadcrumb" className="flex items-center gap-2 text-sm">
          <Link to="/history?type=entries" className="inline-flex min-h-11 items-center underline">
            History
          </Link>
          <span aria-hidden="true">›</span>
          <span>Receipt</span>
        </nav>
        <header className="flex flex-col gap-2">
          <h1 className="font-display text-3xl font-bold">Receipt: ticket #{receipt.tickets.map((t) => t.position).join(", #")}</h1>
          <p className="flex flex-wrap items-center gap-2">
            <TierChip tier={tier} />
            <span>{receipt.raffle.kind === "quick" ? "Quick raffle" : "Raffle"}</span>
          </p>
          <p className="text-ink-muted">
            Proof of your ticket that you can keep and check without trusting us. The download is signed by the site; check it with{" "}
            <code className="font-mono text-sm">node scripts/verify-draw.mjs --receipt receipt.json</code> (docs/fairness.md).
          </p>
        </header>
        <p>
          <a
            href={receipt.links.json}
            download
            className="inline-flex min-h-11 items-center rounded-md bg-accent px-4 font-semibold text-on-accent"
            data-testid="receipt-download"
          >
            Download the receipt (JSON)
          </a>
        </p>
        <section aria-labelledby="receipt-facts" className="rounded-lg border border-line bg-surface p-4">
          <h2 id="receipt-facts" className="font-display text-xl font-bold">
            Your entry
          </h2>
          <dl className="mt-2">
            <Row label="Raffle" value={receipt.raffle.id} mono testId="receipt-raffle" />
            <Row label="Status" value={STATUS[receipt.status]} testId="receipt-status" />
            <Row label="Ticket number" value={receipt.tickets.map((t) => `#${t.position}`).join(", ")} testId="receipt-tickets" />
            <Row label="Ticket id" value={receipt.tickets.map((t) => t.ticketId).join(", ")} mono />
            <Row
              label="Paid"
              value={`${receipt.paid.coins.toLocaleString("en-US")} coins: ${receipt.paid.cash.toLocaleString("en-US")} cash + ${receipt.paid.bonus.toLocaleString("en-US")} bonus`}
              testId="receipt-paid"
            />
            <Row label="Entered" value={<LocalTime at={receipt.enteredAt} testId="receipt-entered" />} />
            <Row label="Draw at" value={<LocalTime at={receipt.raffle.endTime} />} />
          </dl>
        </section>
        <section aria-labelledby="receipt-commitment" className="rounded-lg border border-line bg-surface p-4">
          <h2 id="receipt-commitment" className="font-display text-xl font-bold">
            The raffle's commitment
          </h2>
          <dl className="mt-2">
            <Row label="Seed hash" value={receipt.commitment.seedHash} mono testId="receipt-seed-hash" />
            <Row
              label="Beacon round"
              value={
                beacon ? `drand round ${beacon.round} (chain ${beacon.chainHash.slice(0, 16)}…)` : "Not joined to a beacon: the seed alone decides the winner."
              }
              testId="receipt-beacon"
            />
          </dl>
        </section>
        <section aria-labelledby="receipt-proof" className="rounded-lg border border-line bg-surface p-4">
          <h2 id="receipt-proof" className="font-display text-xl font-bold">
            {draw && draw.result !== "cancelled" ? "Result and proof" : "Proof of inclusion"}
          </h2>
          <dl className="mt-2">
            <Row label="Result" value={<Result receipt={receipt} />} testId="receipt-result" />
            {draw && draw.result !== "cancelled" ? (
              <>
                <Row label="Winning ticket" value={`#${draw.winningTicket}`} testId="receipt-winning-ticket" />
                <Row label="Seed (revealed)" value={draw.seed} mono />
              </>
            ) : null}
            <Row
              label={receipt.inclusion.final ? "Ticket list (published root)" : "Ticket list so far"}
              value={`${receipt.inclusion.listSize} tickets, Merkle root ${receipt.inclusion.listRoot}`}
              mono
              testId="receipt-list"
            />
            <Row
              label="Inclusion proof"
              value={receipt.inclusion.paths[0]!.length === 0 ? "Your ticket is the whole list (no hashes needed)." : receipt.inclusion.paths[0]!.join(" ")}
              mono
              testId="receipt-proof-path"
            />
          </dl>
          <p className="mt-3">
            <Link to={receipt.links.check} className="inline-flex min-h-11 items-center underline" data-testid="receipt-check-link">
              Check this draw in your browser
            </Link>
          </p>
        </section>
        <p className="text-sm text-ink-muted">
          Signed with the site's receipt key <code className="font-mono break-all">{receipt.signature.publicKey}</code>, the one{" "}
          <Link to="/fair" className="underline">
            /fair
          </Link>{" "}
          publishes.
        </p>
      </main>
    </PlayerShell>
  );
}

export const meta: MetaFunction = () => [{ title: "Receipt — Raffle Rush" }];

export function ErrorBoundary() {
  return (
    <PageError
      title="This receipt could not be shown"
      back={{ to: "/history?type=entries", label: "Back to your history" }}
      statuses={{ 404: { title: "Receipt not found", message: "You hold no ticket with that id. Your receipts are linked from your history." } }}
    />
  );
}
