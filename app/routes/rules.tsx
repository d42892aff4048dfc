import type { MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { getEnv } from "~/infra/env.server";
import { POLICY } from "~/shared/policy";
import { expectedReward, wheelOdds } from "~/shared/spin-wheel";
import { VIP_TIERS } from "~/shared/vip";
import { PageError } from "~/components/route-error";
import { BackHome } from "~/components/legal-page";

/** Published odds and rules, from the same configuration the game runs on. */
export function loader() {
  const slices = getEnv().SPIN_WHEEL_WEIGHTS;
  const odds = (chances: number) => {
    const weighted = wheelOdds(slices, chances);
    const total = weighted.reduce((sum, s) => sum + s.weight, 0);
    return {
      chances,
      slices: weighted.map((s) => ({ reward: Number(s.reward), percent: ((s.weight * 100) / total).toFixed(2) })),
      expected: expectedReward(weighted).toFixed(2),
    };
  };
  const chances = [...new Set([1, ...Object.values(VIP_TIERS).map((t) => t.jackpotChances)])];
  return { wheels: chances.map(odds) };
}

export default function Rules() {
  const { wheels } = useLoaderData<typeof loader>();
  return (
    <main className="mx-auto max-w-3xl px-4 py-10 leading-relaxed">
      <BackHome />
      <h1 className="mt-4 text-3xl font-black">Rules and odds</h1>
      <section className="mt-6">
        <h2 className="text-xl font-bold">Raffles</h2>
        <ul className="mt-2 list-disc pl-5">
          <li>
            Every ticket in a raffle has exactly the same chance: your chance of winning is your tickets divided by all tickets. Each raffle card shows it.
          </li>
          <li>
            You may hold up to {POLICY.perRaffleTicketCap} tickets in one raffle unless it says otherwise. Entries close at the raffle's end time on our server.
          </li>
          <li>
            Prize rule: the winner receives {POLICY.winnerSharePercent}% of the pot, rounded down to a whole coin ($0.01), multiplied by the winner's VIP win
            multiplier (rounded down again), never more than the whole pot. The house keeps the rest.
          </li>
          <li>A raffle that ends with fewer than two different players is cancelled and every ticket refunded in full.</li>
          <li>
            Every draw is committed before the raffle opens and can be checked by anyone: each raffle card links to its fair-draw page, which shows the
            commitment, the revealed seed and the recomputed winner.
          </li>
        </ul>
      </section>
      <section className="mt-8">
        <h2 className="text-xl font-bold">The daily spin wheel</h2>
        <p className="mt-2">One free spin every 24 hours. The reward is chosen by our server with a cryptographically secure generator, with these odds:</p>
        {wheels.map((wheel) => (
          <table key={wheel.chances} className="mt-4 w-full text-sm" data-testid="wheel-odds">
            <caption className="text-left font-semibold">
              {wheel.chances === 1 ? "Standard" : `VIP with ${wheel.chances}x jackpot chances`} — expected value {wheel.expected} coins per spin
            </caption>
            <thead>
              <tr>
                <th className="text-left">Reward</th>
                <th className="text-right">Chance</th>
              </tr>
            </thead>
            <tbody>
              {wheel.slices.map((s) => (
                <tr key={s.reward}>
                  <td>{s.reward} coins</td>
                  <td className="text-right">{s.percent}%</td>
                </tr>
              ))}
            </tbody>
          </table>
        ))}
      </section>
    </main>
  );
}

export const meta: MetaFunction = () => [{ title: "Rules and odds — Raffle Rush" }];

export function ErrorBoundary() {
  return <PageError title="The rules could not be shown" />;
}
