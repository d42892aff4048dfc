import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { PlayerShell } from "~/components/player-shell";
import { SettingsContent } from "~/components/settings-dialog";
import { requireUser } from "~/web/auth.server";
import { jsonError, readForm } from "~/web/http.server";
import { pageAction } from "~/web/page-action.server";
import { settingsSchema } from "~/shared/player-settings";
import { saveSettings } from "~/services/accounts/settings.server";
import { useRootData, useUser } from "~/components/use-root-data";
import { PageError } from "~/components/route-error";

/** The settings page: what the Settings dialog shows, as a page that works without JavaScript. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  return null;
}

/**
 * Saves every setting at once (an unticked box is off), from this page's plain form and
 * the dialog's switches alike: back to the page with a toast. Scripts use
 * /api/settings, which answers JSON.
 */
export async function action({ request }: ActionFunctionArgs) {
  return pageAction(
    request,
    async () => {
      const user = await requireUser(request);
      const submission = parseWithZod(await readForm(request), { schema: settingsSchema });
      if (submission.status !== "success") throw jsonError(400, "Each setting is on or off");
      await saveSettings(user.id, submission.value);
      return { type: "success", title: "Settings saved", description: "Your settings are saved." };
    },
    { failureTitle: "Settings not saved", back: "/settings" },
  );
}

export default function Settings() {
  const root = useRootData();
  const user = useUser();
  return (
    <PlayerShell>
      <main className="mx-auto flex max-w-md flex-col gap-4 px-4 py-8">
        <h1 className="text-3xl font-bold">Settings</h1>
        <SettingsContent account={user} theme={root.theme} supportEmail={root.supportEmail} settings={user.settings} />
        <Link to="/" className="min-h-11 rounded-md bg-brand-700 px-4 py-2 text-center font-bold text-white">
          Done
        </Link>
      </main>
    </PlayerShell>
  );
}

export const meta: MetaFunction = () => [{ title: "Settings — Raffle Rush" }];

export function ErrorBoundary() {
  return <PageError title="Your settings could not be shown" />;
}
