import type { MetaFunction } from "@remix-run/node";
import { LegalPage } from "~/components/legal-page";
import { coinsToDecimal } from "~/shared/money";
import { POLICY } from "~/shared/policy";
import { useRootData } from "~/components/use-root-data";
import { PageError } from "~/components/route-error";

const dollars = (coins: number) => `$${coinsToDecimal(BigInt(coins))}`;

/** Every figure comes from POLICY, the same constants the code enforces. */
export default function Terms() {
  const { supportEmail } = useRootData();
  return (
    <LegalPage
      title="Terms of Service"
      updated={POLICY.lastUpdated}
      sections={[
        {
          heading: "Acceptance of these Terms",
          body: <p>By creating an account or using Raffle Rush you agree to these Terms. If you do not agree, do not use the site.</p>,
        },
        {
          heading: "The service",
          body: (
            <p>
              Raffle Rush runs timed raffles and 30-second quick raffles. You buy coins (1 coin = $0.01) and spend them on tickets. When a raffle ends, one
              ticket is drawn by a published, verifiable method; its holder wins {POLICY.winnerSharePercent}% of the pot (more with an active VIP win
              multiplier, never more than the whole pot) and the rest is our fee. A raffle with fewer than two players is cancelled and every ticket refunded.
              You may hold up to {POLICY.perRaffleTicketCap} tickets in one raffle unless the raffle says otherwise.
            </p>
          ),
        },
        {
          heading: "Age and eligibility",
          body: <p>You must be at least {POLICY.minimumAge} years old and allowed to take part in games of chance where you live. One account per person.</p>,
        },
        {
          heading: "Your account",
          body: (
            <p>Keep your password to yourself. You are responsible for what happens in your account. Tell us at once if you think someone else has used it.</p>
          ),
        },
        {
          heading: "Money: purchases and withdrawals",
          body: (
            <>
              <p>
                Coins are bought by card; the smallest purchase is ${coinsToDecimal(BigInt(POLICY.smallestPurchaseCents))}. Purchases are credited once your
                payment is confirmed.
              </p>
              <p>
                You can withdraw winnings from {dollars(POLICY.minimumWithdrawalCoins)} up to your balance. Withdrawals are processed within{" "}
                {POLICY.withdrawalProcessingHours} hours and carry no fees. Withdrawals above {dollars(POLICY.identityCheckAboveCoins)} need your identity
                verified first. The amount you ask to withdraw is set aside at once and cannot be played while the request is pending.
              </p>
            </>
          ),
        },
        {
          heading: "Fair play and prohibited conduct",
          body: <p>No cheating, collusion, automated play, use of stolen cards, or money laundering. We may void entries made this way and refund them.</p>,
        },
        {
          heading: "Privacy",
          body: (
            <p>
              How we handle your data is described in our{" "}
              <a href="/privacy" className="underline">
                Privacy Policy
              </a>
              .
            </p>
          ),
        },
        {
          heading: "Limits of our liability",
          body: <p>To the extent the law allows, we are not liable for indirect losses. Nothing here limits liability that cannot be limited by law.</p>,
        },
        {
          heading: "Suspension and termination",
          body: (
            <p>
              We may suspend accounts that break these Terms. A suspended account cannot play or withdraw until the review ends; coins lawfully held are
              returned at its end.
            </p>
          ),
        },
        {
          heading: "Disputes",
          body: (
            <p>
              Disputes are settled by binding individual arbitration. You and we waive any right to a jury trial and to take part in a class action, except
              where the law does not allow such a waiver.
            </p>
          ),
        },
        {
          heading: "Changes to these Terms",
          body: <p>We will tell you about material changes before they take effect. Continuing to use the site afterwards means you accept them.</p>,
        },
        {
          heading: "Contact",
          body: (
            <p>
              Questions? Write to{" "}
              <a className="underline" href={`mailto:${supportEmail}`}>
                {supportEmail}
              </a>
              .
            </p>
          ),
        },
      ]}
    />
  );
}

export const meta: MetaFunction = () => [{ title: "Terms of Service — Raffle Rush" }];

export function ErrorBoundary() {
  return <PageError title="The terms could not be shown" />;
}
