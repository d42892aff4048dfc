import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { AccountCard } from "~/components/account-card";
import { devMailReader } from "~/web/dev-mailbox.server";
import { readDevMail } from "~/infra/mail/dev-mailbox.server";
import { PageError } from "~/components/route-error";

/** One message of the demo's mailbox, its plain text with the links made clickable. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const mail = await readDevMail(params.id ?? "", await devMailReader(request));
  if (!mail) throw new Response("Not Found", { status: 404 });
  return { mail };
}

const URL_PATTERN = /(https?:\/\/[^\s]+)/g;

export default function DevMail() {
  const { mail } = useLoaderData<typeof loader>();
  return (
    <AccountCard title={mail.subject}>
      <p className="text-sm text-ink-muted">
        To {mail.to} · {mail.date.slice(0, 19).replace("T", " ")} UTC
      </p>
      <div className="whitespace-pre-wrap break-words" data-testid="mail-text">
        {mail.text.split(URL_PATTERN).map((part, i) =>
          i % 2 === 1 ? (
            <a key={i} href={part} className="underline">
              {part}
            </a>
          ) : (
            part
          ),
        )}
      </div>
      <Link to="/dev/mail" className="text-sm underline">
        All messages
      </Link>
    </AccountCard>
  );
}

export const meta: MetaFunction = () => [{ title: "Demo mailbox — Raffle Rush" }];

export function ErrorBoundary() {
  return (
    <PageError
      title="This message could not be shown"
      back={{ to: "/dev/mail", label: "Back to the demo mailbox" }}
      statuses={{ 404: { title: "Message not found", message: "The demo mailbox has no such message (it is only there in demo mode without SMTP_URL)." } }}
    />
  );
}
