import { Link } from "@remix-run/react";
import { useUser } from "./use-root-data";

/**
 * The player's coins in the top bar. A tap (or a click, with or without JavaScript) opens
 * the cash/bonus split: a hover-only tooltip is out of reach on a phone (issue 33).
 */
export function CoinBalance() {
  const user = useUser();
  return (
    <details className="group relative" data-testid="coin-balance-details">
      <summary
        className="cursor-pointer list-none rounded-full bg-gold px-3 font-bold text-on-gold [&::-webkit-details-marker]:hidden"
        data-testid="coin-balance"
      >
        {user.coinBalance.toLocaleString("en-US")} coins
      </summary>
      <div className="absolute right-0 z-30 mt-2 w-64 rounded-xl border border-line bg-surface p-3 text-sm shadow-lg" data-testid="coin-split">
        <BalanceSplit />
        <Link to="/history" className="mt-2 inline-flex min-h-11 items-center underline">
          History
        </Link>
      </div>
    </details>
  );
}

/** The split of the player's coins: what can be withdrawn and what is for play only. */
export function BalanceSplit() {
  const user = useUser();
  return (
    <dl className="grid grid-cols-[1fr_auto] gap-x-3 gap-y-1">
      <dt>Cash (withdrawable)</dt>
      <dd className="text-right font-bold">{user.cashBalance.toLocaleString("en-US")}</dd>
      <dt>Bonus (play only)</dt>
      <dd className="text-right font-bold">{user.bonusBalance.toLocaleString("en-US")}</dd>
    </dl>
  );
}
