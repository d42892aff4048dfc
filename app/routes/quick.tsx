import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { PausedHome } from "~/components/home-page";
import { usePaused } from "~/components/play-session";
import { keptAfterCardEntry } from "~/components/entry-answers";
import { PlayerShell } from "~/components/player-shell";
import { QUICK_POLL_MS, QuickPage } from "~/components/quick-page";
import { requireUser } from "~/web/auth.server";
import { quickPage } from "~/services/raffles/quick.server";
import { useOptionalUser, useRootData } from "~/components/use-root-data";
import { PageError } from "~/components/route-error";

/** Quick raffles; /quick and /quick-raffles both serve this page (PRODUCT.md). */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return quickPage(user);
}

export default function Quick() {
  const data = useLoaderData<typeof loader>();
  const root = useRootData();
  // The coins a card's entry answered, when newer than the root's data (ADR 093).
  const user = useOptionalUser();
  // During a break, an exclusion or in a place no longer served no page invites play (PRODUCT.md):
  // the same calm page as home, with no rounds, pots or countdowns.
  if (usePaused() !== null) {
    return (
      <PlayerShell>
        <PausedHome />
      </PlayerShell>
    );
  }
  return (
    <PlayerShell game={{ kind: "quick", pollMs: QUICK_POLL_MS, readAt: data.readAt }}>
      <QuickPage data={data} balance={user?.coinBalance ?? 0} serverNow={root.serverNow} />
    </PlayerShell>
  );
}

/** A card's entry answers with what changed; the page's data is not loaded again (ADR 093). */
export const shouldRevalidate = keptAfterCardEntry;

export const meta: MetaFunction = () => [{ title: "Quick Raffles — Raffle Rush" }];

export function ErrorBoundary() {
  return <PageError title="The quick raffles could not be shown" />;
}
