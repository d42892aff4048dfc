import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { HOME_POLL_MS, HomePage } from "~/components/home-page";
import { Landing } from "~/components/landing";
import { keptAfterCardEntry } from "~/components/entry-answers";
import { PlayerShell } from "~/components/player-shell";
import { needsOnboarding } from "~/services/accounts/sessions.server";
import { getSession } from "~/web/auth.server";
import { homePage, landingPage } from "~/services/raffles/home.server";
import { useOptionalUser, useRootData } from "~/components/use-root-data";
import { PageError } from "~/components/route-error";

export async function loader({ request }: LoaderFunctionArgs) {
  const session = await getSession(request);
  if (!session) return { kind: "landing" as const, live: await landingPage() };
  if (needsOnboarding(session.user)) throw redirect("/onboarding");
  return { kind: "home" as const, home: await homePage(session.user) };
}

export default function Index() {
  const data = useLoaderData<typeof loader>();
  const root = useRootData();
  // The coins a card's entry answered, when newer than the root's data (ADR 093).
  const user = useOptionalUser();
  if (data.kind === "landing") return <Landing live={data.live} />;
  return (
    <PlayerShell game={{ kind: "regular", pollMs: HOME_POLL_MS, readAt: data.home.readAt }}>
      <HomePage data={data.home} balance={user?.coinBalance ?? 0} serverNow={root.serverNow} />
    </PlayerShell>
  );
}

/** A card's entry answers with what changed; the page's data is not loaded again (ADR 093). */
export const shouldRevalidate = keptAfterCardEntry;

export const meta: MetaFunction = () => [{ title: "Raffle Rush — micro-stakes raffles, half the pot to the winner" }];

export function ErrorBoundary() {
  return <PageError title="The raffles could not be shown" />;
}
