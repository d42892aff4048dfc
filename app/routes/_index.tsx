import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Landing } from "~/components/landing";
import { TopBar } from "~/components/top-bar";
import { UsernameDialog } from "~/components/username-dialog";
import { getSession, needsOnboarding } from "~/services/auth.server";
import { displayName } from "~/services/display-name";
import { userRecord } from "~/services/users.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const session = await getSession(request);
  if (!session) return { user: null };
  if (needsOnboarding(session.user)) throw redirect("/onboarding");
  return { user: await userRecord(session.user) };
}

export default function Index() {
  const { user } = useLoaderData<typeof loader>();
  if (!user) return <Landing />;
  return (
    <div className="min-h-screen">
      <TopBar name={displayName(user)} coinBalance={user.coinBalance} />
      <main className="mx-auto max-w-5xl px-4 py-8">
        <h1 className="text-2xl font-bold">Raffles</h1>
      </main>
      {user.username ? null : <UsernameDialog />}
    </div>
  );
}

export const meta: MetaFunction = () => [{ title: "Raffle Rush — micro-stakes raffles, half the pot to the winner" }];
