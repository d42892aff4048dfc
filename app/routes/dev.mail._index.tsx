import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { AccountCard } from "~/components/account-card";
import { devMailReader } from "~/web/dev-mailbox.server";
import { listDevMail } from "~/infra/mail/dev-mailbox.server";
import { PageError } from "~/components/route-error";

/** The demo's mailbox: the messages the site wrote to DATA_DIR/mail that this reader may see. Demo mode only. */
export async function loader({ request }: LoaderFunctionArgs) {
  const reader = await devMailReader(request);
  return { mail: await listDevMail(reader), everyone: reader.all };
}

export default function DevMailbox() {
  const { mail, everyone } = useLoaderData<typeof loader>();
  return (
    <AccountCard title="Demo mailbox">
      <p className="text-sm text-ink-muted">
        This demo sends no real email: every message it would send is listed here, newest first, {everyone ? "for every address." : "for your address only."}
      </p>
      {mail.length === 0 ? (
        <p>No messages yet.</p>
      ) : (
        <ul className="flex flex-col divide-y divide-line">
          {mail.map((m) => (
            <li key={m.id} className="py-2">
              <Link to={`/dev/mail/${m.id}`} className="font-semibold underline">
                {m.subject}
              </Link>
              <p className="text-sm text-ink-muted">
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
