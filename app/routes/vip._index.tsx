import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { PlayerShell } from "~/components/player-shell";
import { VipPage } from "~/components/vip-page";
import type { RootData } from "~/root";
import { requireUser } from "~/services/auth.server";
import { vipClaimStatus } from "~/services/rewards.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return vipClaimStatus(user.id);
}

export default function Vip() {
  const { claimedToday } = useLoaderData<typeof loader>();
  const root = useRouteLoaderData<RootData>("root")!;
  return (
    <PlayerShell>
      <VipPage user={root.user!} claimedToday={claimedToday} />
    </PlayerShell>
  );
}

export const meta: MetaFunction = () => [{ title: "VIP — Raffle Rush" }];
