import { useLocation } from "@remix-run/react";
import type { RaffleView } from "~/services/feeds.server";
import { useShowToast } from "./toaster";
import { usePaused } from "./play-session";
import { useHydrated } from "./use-hydrated";
import { useJsonAction } from "./use-json-action";
import { parseDollars } from "~/services/money";
import {
  formatCountdown,
  quickPhase,
  regularPhase,
  exactSecondsLeft,
  secondsLeft,
  ticketsOutlook,
  TIER_LABELS,
} from "~/services/raffle-display";

/** The fields of the API's raffle view that a card shows. */
export type RaffleCardData = Omit<RaffleView, "timeRemaining" | "maxTicketsPerPlayer" | "seedHash">;


/**
 * One raffle: pot, players, countdown and the entry button. The button is a plain form
 * post (works without JavaScript); with JavaScript it enters in place and toasts.
 */
export function RaffleCard({
  raffle,
  kind,
  balance,
  now,
}: {
  raffle: RaffleCardData;
  kind: "regular" | "quick";
  balance: number;
  now: number;
}) {
  const hydrated = useHydrated();
  // During a break, an exclusion or in a place no longer served, no card invites play (PRODUCT.md).
  const paused = usePaused() !== null;
  const location = useLocation();
  const showToast = useShowToast();
  const { submit, pending } = useJsonAction<{ tier: string }>();
  const left = secondsLeft(raffle.endTime, now);
  // A quick round closes in its last second: under 1 s left, not when the countdown shows 0.
  const phase = kind === "quick" ? quickPhase(exactSecondsLeft(raffle.endTime, now), raffle.status) : regularPhase(left);
  const closed = phase === "drawing";
  const short = BigInt(balance) < (parseDollars(raffle.entryPrice) ?? 0n);
  const action = `/api/${kind === "quick" ? "quick-raffles" : "raffles"}/${raffle.id}/enter`;
  const label =
    kind === "quick"
      ? closed
        ? "Drawing Winner..."
        : short
          ? "Insufficient Coins"
          : `Enter $${raffle.entryPrice}`
      : closed
        ? "DRAWING..."
        : phase === "ending-soon"
          ? "QUICK ENTER"
          : `Enter $${raffle.entryPrice}`;
  const urgent = !paused && (phase === "urgent" || phase === "ending-soon");
  const tierLabel = kind === "quick" ? raffle.tier.toUpperCase() : (TIER_LABELS[raffle.tier] ?? raffle.tier.toUpperCase());

  return (
    <article
      className={`flex flex-col gap-3 rounded-xl border bg-white p-4 dark:bg-slate-900 ${urgent ? "border-red-500" : "border-slate-200 dark:border-slate-800"}`}
      aria-label={`${tierLabel} raffle, $${raffle.entryPrice} entry`}
      data-testid="raffle-card"
      data-raffle-id={raffle.id}
    >
      <div className="flex items-center justify-between gap-2">
        <span className="rounded bg-slate-900 px-2 py-0.5 text-xs font-bold text-white dark:bg-slate-100 dark:text-slate-900">{tierLabel}</span>
        {raffle.vipOnly ? <span className="rounded bg-amber-300 px-2 py-0.5 text-xs font-bold text-amber-950">VIP</span> : null}
        {phase === "ending-soon" && !paused ? <span className="text-xs font-bold text-red-700 dark:text-red-400">ENDING SOON</span> : null}
      </div>
      <p className="text-3xl font-black" data-testid="pot">${raffle.currentPot}</p>
      <dl className="grid grid-cols-2 gap-1 text-sm">
        <dt className="text-slate-600 dark:text-slate-400">Entry</dt>
        <dd className="text-right font-semibold">${raffle.entryPrice}</dd>
        <dt className="text-slate-600 dark:text-slate-400">Players</dt>
        <dd className="text-right font-semibold">{raffle.participantCount}</dd>
        <dt className="text-slate-600 dark:text-slate-400">Time left</dt>
        <dd className={`text-right font-mono font-semibold ${urgent ? "text-red-700 dark:text-red-400" : ""}`} data-testid="countdown">
          {closed ? (kind === "quick" ? "Drawing Winner..." : "DRAWING...") : formatCountdown(left)}
        </dd>
        {kind === "quick" ? (
          <>
            <dt className="text-slate-600 dark:text-slate-400">You could win</dt>
            <dd className="text-right font-semibold">${raffle.couldWin}</dd>
          </>
        ) : null}
        {raffle.myTickets !== undefined ? (
          <>
            <dt className="text-slate-600 dark:text-slate-400">Your tickets</dt>
            <dd className="text-right font-semibold" data-testid="my-tickets">
              {raffle.myTickets} · {ticketsOutlook(raffle.myTickets, raffle.ticketCount, raffle.participantCount)}
            </dd>
          </>
        ) : null}
      </dl>
      {hydrated ? null : (
        <p className="text-xs text-slate-600 dark:text-slate-400">
          Ends at <time dateTime={raffle.endTime}>{new Date(raffle.endTime).toISOString().slice(11, 19)} UTC</time> ·{" "}
          <a href={`${location.pathname}${location.search}`} className="underline">Refresh</a>
        </p>
      )}
      {paused ? (
        <p className="text-center text-sm text-slate-600 dark:text-slate-400" data-testid="entry-paused">Entries are paused for your account.</p>
      ) : (
        <form
          method="post"
          action={action}
          onSubmit={(event) => {
            event.preventDefault();
            void submit(event.currentTarget, {
              failureTitle: "Entry Failed",
              fallbackMessage: kind === "quick" ? "Failed to enter quick raffle" : "Failed to enter raffle",
              onSuccess: (body) =>
                showToast(
                  kind === "quick"
                    ? { type: "success", title: "Quick Entry!", description: `You're in the ${body.tier} round.` }
                    : { type: "success", title: "Success!", description: `Successfully entered ${body.tier} raffle!` },
                ),
            });
          }}
        >
          <button
            type="submit"
            disabled={closed || (kind === "quick" && short) || pending}
            className={`w-full rounded-md px-4 py-2 font-bold text-white disabled:cursor-not-allowed disabled:opacity-60 ${urgent ? "bg-red-700 hover:bg-red-600" : "bg-brand-700 hover:bg-brand-800"}`}
          >
            {pending ? "Entering..." : label}
          </button>
        </form>
      )}
      <a href={`/fair/${raffle.id}`} className="py-1 text-center text-xs underline">How this draw is checked</a>
    </article>
  );
}
