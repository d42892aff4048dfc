import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { PlayerShell } from "~/components/player-shell";
import { VipPage } from "~/components/vip-page";
import { requireUser } from "~/web/auth.server";
import { vipClaimStatus } from "~/services/rewards/rewards.server";
import { useUser } from "~/components/use-root-data";
import { PageError } from "~/components/route-error";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return vipClaimStatus(user.id);
}

export default function Vip() {
  const { claimedToday } = useLoaderData<typeof loader>();
  const user = useUser();
  return (
    <PlayerShell>
      <VipPage user={user} claimedToday={claimedToday} />
    </PlayerShell>
  );
}

export const meta: MetaFunction = () => [{ title: "VIP — Raffle Rush" }];

export function ErrorBoundary() {
  return <PageError title="The VIP page could not be shown" />;
}
