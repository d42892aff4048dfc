import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { BalanceSplit } from "~/components/coin-balance";
import { PlayerShell } from "~/components/player-shell";
import { PageError } from "~/components/route-error";
import { useUser } from "~/components/use-root-data";
import { requireUser } from "~/web/auth.server";
import { displayName } from "~/shared/display-name";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  return null;
}

/**
 * The player's account, where the phone's bottom bar "Profile" leads: balance and its split,
 * the pages about their money and settings, and Logout, which a stray tap no longer does
 * (PRODUCT.md, "Look and feel").
 */
export default function Account() {
  const user = useUser();
  const link = "flex min-h-11 items-center justify-between rounded-md border border-line px-3";
  return (
    <PlayerShell>
      <main className="mx-auto flex max-w-lg flex-col gap-6 px-4 py-8">
        <h1 className="text-3xl font-black">Your account</h1>
        <section aria-labelledby="balance-title" className="flex flex-col gap-2 rounded-xl border border-line bg-surface p-4">
          <h2 id="balance-title" className="font-bold">
            {displayName(user)}
          </h2>
          <p className="text-2xl font-black" data-testid="account-balance">
            {user.coinBalance.toLocaleString("en-US")} coins
          </p>
          <BalanceSplit />
        </section>
        <nav aria-label="Account" className="flex flex-col gap-2">
          <Link to="/history" className={link}>
            History
          </Link>
          <Link to="/withdraw" className={link}>
            Withdraw
          </Link>
          <Link to="/settings" className={link}>
            Settings
          </Link>
          <Link to="/responsible-play" className={link}>
            Responsible play
          </Link>
          <Link to="/complaints" className={link}>
            My complaints
          </Link>
        </nav>
        <form method="post" action="/api/logout">
          <button type="submit" className="w-full rounded-md border border-line-strong px-4 py-2 font-semibold">
            Logout
          </button>
        </form>
      </main>
    </PlayerShell>
  );
}

export const meta: MetaFunction = () => [{ title: "Your account — Raffle Rush" }];

export function ErrorBoundary() {
  return <PageError title="Your account could not be shown" />;
}
