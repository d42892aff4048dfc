import { useFetcher } from "@remix-run/react";
import { longUtcDate } from "~/shared/dates";
import { coinsToDecimal } from "~/shared/money";
import { VIP_PERIOD_DAYS, VIP_TIERS, type VipTierName } from "~/shared/vip";
import { usePaused } from "./play-session";
import { TierChip, vipTier } from "./tiers";

type VipUser = { vipTier: string; vipActive: boolean; vipExpiry: string | null };

export function VipPage({ user, claimedToday }: { user: VipUser; claimedToday: boolean }) {
  const claim = useFetcher();
  const pending = claim.state !== "idle";
  // While play is stopped (PausedNotice says why): no subscriptions and no bonus offered.
  const paused = usePaused() !== null;
  const tiers = Object.entries(VIP_TIERS) as [VipTierName, (typeof VIP_TIERS)[VipTierName]][];
  const heldIndex = user.vipActive ? tiers.findIndex(([tier]) => tier === user.vipTier) : -1;
  return (
    <main className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-6">
      <h1 className="text-3xl font-black">VIP</h1>
      <section
        aria-labelledby="status-title"
        className="rounded-xl border border-amber-400 bg-amber-50 p-4 text-amber-950 dark:bg-amber-950 dark:text-amber-50"
        data-testid="vip-status"
      >
        <h2 id="status-title" className="text-xl font-bold">
          Your status
        </h2>
        {/* The API shows bronze when no membership is active (spec); the page says what that means. */}
        <p className="mt-1" data-testid="vip-tier">
          {user.vipActive && user.vipExpiry ? (
            <>
              Tier: <strong>{user.vipTier.toUpperCase()}</strong> · active until <time dateTime={user.vipExpiry}>{longUtcDate(user.vipExpiry)}</time>
            </>
          ) : (
            <>No VIP membership. Choose a tier below to get its benefits for {VIP_PERIOD_DAYS} days.</>
          )}
        </p>
        {paused ? null : !user.vipActive ? (
          // Daily free coins are a VIP benefit (PRODUCT.md): no button that can only fail.
          <p className="mt-3 text-sm" data-testid="daily-bonus-members-only">
            <button type="button" disabled aria-describedby="daily-bonus-why" className="rounded-md bg-gold px-4 py-2 font-bold text-on-gold opacity-60">
              Claim Daily Bonus
            </button>{" "}
            <span id="daily-bonus-why">The daily bonus is for active VIP members.</span>
          </p>
        ) : (
          // One answer with or without JavaScript: back to this page with the spec's toast.
          <claim.Form method="post" action="/vip/claim-daily-bonus" className="mt-3" preventScrollReset>
            <button type="submit" disabled={pending || claimedToday} className="rounded-md bg-gold px-4 py-2 font-bold text-on-gold disabled:opacity-60">
              {claimedToday ? "Claimed today" : pending ? "Claiming..." : "Claim Daily Bonus"}
            </button>
          </claim.Form>
        )}
      </section>
      <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-5">
        {tiers.map(([tier, t], index) => {
          const identity = vipTier(tier);
          const own = index === heldIndex;
          return (
            <li key={tier} className={`rc ${identity.className}${own ? " ring-2 ring-(--t-edge)" : ""}`} data-testid="vip-card" data-own={own || undefined}>
              <div className="rc-head">
                <h2>
                  <TierChip tier={identity} />
                </h2>
                {own ? <span className="rounded-full bg-accent px-2.5 py-0.5 text-xs font-bold text-on-accent">Your tier</span> : null}
              </div>
              <p className="font-display text-3xl font-bold">
                ${coinsToDecimal(BigInt(t.priceCents))}
                <span className="text-sm font-normal text-ink-muted">/month</span>
              </p>
              <ul className="text-sm">
                <li>{t.multiplierTenths / 10}x win multiplier</li>
                <li>{t.dailyCoins} free coins daily</li>
                <li>+{t.bonusPercent}% bonus coins on purchases</li>
                {t.jackpotChances > 1 ? <li>{t.jackpotChances}x jackpot chances on the daily wheel</li> : null}
              </ul>
              {paused ? null : index < heldIndex ? (
                // Buying again extends or moves up: a lower tier waits until the membership ends.
                <p className="mt-auto text-center text-sm text-ink-muted">Available when your {user.vipTier.toUpperCase()} membership ends</p>
              ) : (
                <a href={`/vip/checkout?tier=${tier}`} className="mt-auto rounded-md bg-accent px-3 py-2 text-center font-bold text-on-accent">
                  {own ? "Extend" : "Subscribe"}
                </a>
              )}
            </li>
          );
        })}
      </ul>
    </main>
  );
}
