import { Link } from "@remix-run/react";
import { formatDecimalDollars } from "~/shared/money";
import { ActionButton, Cell, Table } from "./admin-tabs";

type AdminRaffle = {
  id: string;
  kind: string;
  tier: string;
  status: string;
  entryPrice: string;
  currentPot: string;
  tickets: number;
  players: number;
  startTime: string;
  endTime: string;
  drawnAt: string | null;
  closedEarly: boolean;
  outcome: string;
};

const time = (iso: string) => iso.slice(5, 19).replace("T", " ");

/** The raffles tab: active raffles and the last day's; empty cancelled rounds only on request. */
export function RaffleList({ raffles, showEmpty }: { raffles: AdminRaffle[]; showEmpty: boolean }) {
  return (
    <section aria-label="Raffles" className="flex flex-col gap-3">
      <p className="text-sm">
        {showEmpty ? "Showing every round, rounds cancelled without entries included. " : "Rounds cancelled without any entry are hidden. "}
        <Link to={showEmpty ? "/admin/raffles" : "/admin/raffles?empty=1"} className="underline">
          {showEmpty ? "Hide empty cancelled rounds" : "Show empty cancelled rounds"}
        </Link>
      </p>
      <Table label="Raffles" head={["Raffle", "Tier", "Opened – ends (UTC)", "Drawn", "Pot", "Tickets", "Players", "Outcome", ""]}>
        {raffles.map((r) => (
          <tr key={r.id} data-testid="admin-raffle">
            <Cell label="Raffle">
              <a href={`/fair/${r.id}`} className="font-mono text-xs underline" title={r.id}>
                {r.id.slice(0, 8)}
              </a>
              <span className="block">
                {r.kind} {formatDecimalDollars(r.entryPrice)}
              </span>
            </Cell>
            <Cell label="Tier">{r.tier}</Cell>
            <Cell label="Times">
              {time(r.startTime)} – {time(r.endTime).slice(6)}
            </Cell>
            <Cell label="Drawn">{r.drawnAt ? time(r.drawnAt) : "—"}</Cell>
            <Cell label="Pot">{formatDecimalDollars(r.currentPot)}</Cell>
            <Cell label="Tickets">{r.tickets}</Cell>
            <Cell label="Players">{r.players}</Cell>
            <Cell label="Outcome">{r.outcome}</Cell>
            <Cell>{r.status === "active" && !r.closedEarly ? <ActionButton action={`/admin/raffles/${r.id}/complete`} label="Complete now" /> : null}</Cell>
          </tr>
        ))}
      </Table>
    </section>
  );
}
