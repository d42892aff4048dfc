import { useEffect, useState } from "react";
import { coinsToDecimal, parseDollars } from "~/shared/money";
import { DemoMark } from "./demo-mark";
import { useCountUp } from "./use-count-up";

/** A drawn raffle as its card shows it: the winner, their prize and the ticket drawn. */
export type DrawnFields = { winner?: string; winnerIsDemo?: boolean; prize?: string; youWon?: boolean; winningTicket?: number };

/** The pot, counting up to its new value when entries arrive. */
export function Pot({ dollars }: { dollars: string }) {
  const cents = Number(parseDollars(dollars) ?? 0n);
  const shown = useCountUp(cents);
  // Screen readers get the value itself, not every step of the count (the card is `relative`,
  // so this sr-only text stays inside a scrolling row of cards instead of widening the page).
  return (
    <>
      <p className="rc-pot" data-testid="pot" aria-hidden="true">
        {`$${coinsToDecimal(BigInt(shown))}`}
      </p>
      <p className="sr-only">{`$${dollars}`}</p>
    </>
  );
}

/** The step of the draw's reel: a new ticket number this often while the draw runs. */
const REEL_STEP_MS = 90;

/**
 * The draw happening: ticket numbers running past until the result arrives. Without JavaScript,
 * or with prefers-reduced-motion, the words alone. The numbers are a picture of the draw, not
 * the draw: the winning ticket comes from the server (and the fair-draw page proves it).
 */
export function DrawReel({ ticketCount }: { ticketCount: number }) {
  const [step, setStep] = useState<number | null>(null);
  useEffect(() => {
    if (ticketCount < 2) return;
    const timer = setInterval(() => setStep((s) => (s ?? 0) + 1), REEL_STEP_MS);
    return () => clearInterval(timer);
  }, [ticketCount]);
  return (
    <p className="rc-draw" data-testid="draw-reel">
      <span>Drawing the winning ticket</span>
      {/* A stride coprime with most counts visits the tickets in a shuffled-looking order. */}
      {step === null ? null : <span className="rc-ticket" aria-hidden="true">{`#${(step * 7919) % ticketCount}`}</span>}
    </p>
  );
}

/** What a drawn raffle came to: the ticket drawn, its winner (a reveal) and the mark that links to its proof; or its refund. */
export function Result({ raffle, raffleId, phase }: { raffle: DrawnFields; raffleId: string; phase: "won" | "cancelled" }) {
  if (phase === "cancelled") {
    return (
      <p className="rounded-lg bg-sunken p-3 text-center text-sm" data-testid="card-result">
        Cancelled: fewer than two players joined. Every ticket was refunded.
      </p>
    );
  }
  return (
    <div className="flex flex-col gap-1 text-center">
      {raffle.winningTicket === undefined ? null : <p className="rc-ticket" data-testid="winning-ticket">{`Ticket #${raffle.winningTicket}`}</p>}
      <p
        className={`motion-safe:animate-reveal rounded-lg p-3 font-bold ${raffle.youWon ? "bg-win-strong text-white" : "bg-gold text-on-gold"}`}
        data-testid="card-result"
      >
        <span aria-hidden="true" className="ic ic-trophy mr-1 inline-flex align-[-4px]" />
        <WinnerWords raffle={raffle} />
      </p>
      <a href={`/fair/${raffleId}`} className="rc-verified ic ic-verified" data-testid="verified-mark">
        Verified draw
      </a>
    </div>
  );
}

/** Who won a drawn raffle, in the card's words: "You won $x!" or "{name} [demo] won $x". */
export function WinnerWords({ raffle }: { raffle: DrawnFields }) {
  if (raffle.youWon) return <>{`You won $${raffle.prize}!`}</>;
  return (
    <>
      {raffle.winner}
      <DemoMark isDemo={raffle.winnerIsDemo} />
      {` won $${raffle.prize}`}
    </>
  );
}
