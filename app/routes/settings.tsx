import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { PlayerShell } from "~/components/player-shell";
import { SettingsContent } from "~/components/settings-dialog";
import { requireUser } from "~/services/auth.server";
import { useRootData, useUser } from "~/components/use-root-data";
import { PageError } from "~/components/route-error";

/** The settings page: what the Settings dialog shows, as a page that works without JavaScript (ADR 031). */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  return null;
}

export default function Settings() {
  const root = useRootData();
  const user = useUser();
  return (
    <PlayerShell>
      <main className="mx-auto flex max-w-md flex-col gap-4 px-4 py-8">
        <h1 className="text-3xl font-bold">Settings</h1>
        <SettingsContent account={user} theme={root.theme} supportEmail={root.supportEmail} settings={user.settings} />
        <Link to="/" className="min-h-11 rounded-md bg-brand-700 px-4 py-2 text-center font-bold text-white">Done</Link>
      </main>
    </PlayerShell>
  );
}

export const meta: MetaFunction = () => [{ title: "Settings — Raffle Rush" }];

export function ErrorBoundary() {
  return <PageError title="Your settings could not be shown" />;
}
