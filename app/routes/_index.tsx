import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { HOME_POLL_MS, HomePage } from "~/components/home-page";
import { Landing } from "~/components/landing";
import { PlayerShell } from "~/components/player-shell";
import { needsOnboarding } from "~/services/accounts/sessions.server";
import { getSession } from "~/web/auth.server";
import { homePage, landingPage } from "~/services/raffles/home.server";
import { useRootData } from "~/components/use-root-data";
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
  if (data.kind === "landing") return <Landing live={data.live} />;
  return (
    <PlayerShell game={{ kind: "regular", pollMs: HOME_POLL_MS }}>
      <HomePage data={data.home} balance={root.user?.coinBalance ?? 0} serverNow={root.serverNow} />
    </PlayerShell>
  );
}

export const meta: MetaFunction = () => [{ title: "Raffle Rush — micro-stakes raffles, half the pot to the winner" }];

export function ErrorBoundary() {
  return <PageError title="The raffles could not be shown" />;
}
