import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { buttonClass } from "~/components/form-fields";
import { PlayerShell } from "~/components/player-shell";
import { PageError } from "~/components/route-error";
import { listPlayerComplaints } from "~/services/back-office/complaints.server";
import { COMPLAINT_STATES } from "~/shared/complaints";
import { longUtcDate, utcMinute } from "~/shared/dates";
import { requireUser } from "~/web/auth.server";

/** "My complaints": each one's state (received, answered, closed), the answer, and when it is due. API clients use GET /api/complaints. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return { complaints: await listPlayerComplaints(user.id) };
}

const STATE_CLASS = { received: "bg-sunken text-ink", answered: "bg-accent text-on-accent", closed: "border border-line-strong text-ink-muted" } as const;

export default function MyComplaints() {
  const { complaints } = useLoaderData<typeof loader>();
  return (
    <PlayerShell>
      <main className="mx-auto flex max-w-2xl flex-col gap-6 px-4 py-8">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h1 className="text-3xl font-black">My complaints</h1>
          <Link to="/complaints/new" className={`${buttonClass} min-h-11`}>
            File a complaint
          </Link>
        </div>
        {complaints.length === 0 ? <p>You have not filed a complaint.</p> : null}
        <ol className="flex flex-col gap-4">
          {complaints.map((c) => (
            <li key={c.id} className="rounded-xl border border-line bg-surface p-4" data-testid="complaint">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <h2 className="font-bold">{c.subjectLabel}</h2>
                <span className={`rounded-full px-3 py-0.5 text-sm font-semibold ${STATE_CLASS[c.status]}`} data-testid="complaint-state">
                  {COMPLAINT_STATES[c.status]}
                </span>
              </div>
              <p className="text-sm text-ink-muted">
                Filed {utcMinute(c.createdAt)} UTC
                {c.reference ? (
                  <>
                    {" "}
                    · about <span className="font-mono break-all">{c.reference}</span>
                  </>
                ) : null}
                {c.status === "received" ? ` · answer due by ${longUtcDate(c.dueAt)}` : null}
              </p>
              <p className="mt-2 whitespace-pre-line break-words">{c.message}</p>
              {c.answer ? (
                <div className="mt-3 rounded-md bg-sunken p-3" data-testid="complaint-answer">
                  <p className="text-sm font-semibold">Our answer ({utcMinute(c.answeredAt!)} UTC)</p>
                  <p className="whitespace-pre-line break-words">{c.answer}</p>
                </div>
              ) : null}
            </li>
          ))}
        </ol>
      </main>
    </PlayerShell>
  );
}

export const meta: MetaFunction = () => [{ title: "My complaints — Raffle Rush" }];

export function ErrorBoundary() {
  return <PageError title="Your complaints could not be shown" />;
}
