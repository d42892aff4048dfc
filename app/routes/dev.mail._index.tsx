import type { MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { AccountCard } from "~/components/account-card";
import { getEnv } from "~/infra/env.server";
import { listDevMail } from "~/infra/mail/dev-mailbox.server";
import { PageError } from "~/components/route-error";

/** The demo's mailbox: every message the site wrote to DATA_DIR/mail. Demo mode only (ADR 032). */
export async function loader() {
  if (!getEnv().demoMode || getEnv().SMTP_URL) throw new Response("Not Found", { status: 404 });
  return { mail: await listDevMail() };
}

export default function DevMailbox() {
  const { mail } = useLoaderData<typeof loader>();
  return (
    <AccountCard title="Demo mailbox">
      <p className="text-sm text-slate-700 dark:text-slate-300">
        This demo sends no real email: every message it would send is listed here, newest first, for every address.
      </p>
      {mail.length === 0 ? (
        <p>No messages yet.</p>
      ) : (
        <ul className="flex flex-col divide-y divide-slate-200 dark:divide-slate-800">
          {mail.map((m) => (
            <li key={m.id} className="py-2">
              <Link to={`/dev/mail/${m.id}`} className="font-semibold underline">
                {m.subject}
              </Link>
              <p className="text-sm text-slate-600 dark:text-slate-400">
                To {m.to} · {m.date.slice(0, 19).replace("T", " ")} UTC
              </p>
            </li>
          ))}
        </ul>
      )}
    </AccountCard>
  );
}

export const meta: MetaFunction = () => [{ title: "Demo mailbox — Raffle Rush" }];

export function ErrorBoundary() {
  return (
    <PageError
      title="The demo mailbox could not be shown"
      statuses={{ 404: { title: "No demo mailbox here", message: "The demo mailbox exists only in demo mode without SMTP_URL." } }}
    />
  );
}
