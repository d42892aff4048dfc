import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { PlayerShell } from "~/components/player-shell";
import { QUICK_POLL_MS, QuickPage } from "~/components/quick-page";
import type { RootData } from "~/root";
import { requireUser } from "~/services/auth.server";
import { quickPage } from "~/services/quick.server";

/** Quick raffles; /quick and /quick-raffles both serve this page (PRODUCT.md). */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return quickPage(user);
}

export default function Quick() {
  const data = useLoaderData<typeof loader>();
  const root = useRouteLoaderData<RootData>("root")!;
  return (
    <PlayerShell gamePollMs={QUICK_POLL_MS}>
      <QuickPage data={data} balance={root.user?.coinBalance ?? 0} serverNow={root.serverNow} />
    </PlayerShell>
  );
}

export const meta: MetaFunction = () => [{ title: "Quick Raffles — Raffle Rush" }];
