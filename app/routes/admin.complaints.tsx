import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useFetcher, useLoaderData } from "@remix-run/react";
import { ActionButton, Cell, Table } from "~/components/admin-tabs";
import { SectionError } from "~/components/route-error";
import { complaintQueue } from "~/services/back-office/complaints.server";
import { COMPLAINT_ANSWER_MAX, COMPLAINT_STATES } from "~/shared/complaints";
import { utcMinute } from "~/shared/dates";
import { requireAdmin } from "~/web/auth.server";

/** The complaints tab (docs/decisions/081-complaints.md): the queue, overdue first, each with its age and the day its answer is due. */
export async function loader({ request }: LoaderFunctionArgs) {
  // Loaders run in parallel: the layout's guard does not cover this one.
  const session = await requireAdmin(request);
  return complaintQueue(session.user.id);
}

/** The answer the player reads (on their page and by email): a plain post without JavaScript. */
function AnswerForm({ id }: { id: string }) {
  const fetcher = useFetcher();
  return (
    <fetcher.Form method="post" action={`/admin/complaints/${id}/answer`} preventScrollReset className="flex w-72 max-w-full min-w-0 flex-col gap-1 text-xs">
      <label className="flex min-w-0 flex-col">
        Answer the player reads
        <textarea
          name="answer"
          required
          minLength={10}
          maxLength={COMPLAINT_ANSWER_MAX}
          rows={3}
          className="w-full rounded border border-line-strong bg-surface px-2 py-1 text-sm text-ink"
        />
      </label>
      <button
        type="submit"
        disabled={fetcher.state !== "idle"}
        className="min-h-6 self-start rounded border border-line-strong px-2 py-0.5 font-semibold max-sm:min-h-11"
      >
        Send answer
      </button>
    </fetcher.Form>
  );
}

export default function AdminComplaints() {
  const { rows, answerDays } = useLoaderData<typeof loader>();
  const overdue = rows.filter((r) => r.overdue).length;
  return (
    <section aria-label="Complaints" className="flex flex-col gap-3">
      <p>
        Answers are due within {answerDays} days of filing. Waiting: {rows.filter((r) => r.status === "received").length} · overdue:{" "}
        <strong className={overdue > 0 ? "text-danger" : ""}>{overdue}</strong>
      </p>
      <Table label="Complaints" head={["Player", "About", "Complaint", "Age", "Due", "State", ""]}>
        {rows.length === 0 ? (
          <tr>
            <td colSpan={7} className="px-2 py-2 text-ink-muted">
              No complaints.
            </td>
          </tr>
        ) : null}
        {rows.map((c) => (
          <tr key={c.id} data-testid="complaint-row">
            <Cell label="Player">{c.player}</Cell>
            <Cell label="About">
              {c.subjectLabel}
              {c.reference ? <span className="block font-mono text-xs break-all">{c.reference}</span> : null}
            </Cell>
            <Cell label="Complaint">
              <span className="block max-w-md whitespace-pre-line">{c.message}</span>
              {c.answer ? <span className="mt-1 block max-w-md whitespace-pre-line text-ink-muted">Answer: {c.answer}</span> : null}
            </Cell>
            <Cell label="Age">{c.ageDays} d</Cell>
            <Cell label="Due">
              {utcMinute(c.dueAt)}
              {c.overdue ? (
                <strong className="block text-danger" data-testid="complaint-overdue">
                  Overdue
                </strong>
              ) : null}
            </Cell>
            <Cell label="State">{COMPLAINT_STATES[c.status]}</Cell>
            <Cell>
              {/* No button for what the admin may not do: a complaint about their own account is another admin's. */}
              {c.own ? (
                "Your own account: another admin handles it."
              ) : c.status === "received" ? (
                <AnswerForm id={c.id} />
              ) : c.status === "answered" ? (
                <ActionButton action={`/admin/complaints/${c.id}/close`} label="Close" />
              ) : null}
            </Cell>
          </tr>
        ))}
      </Table>
    </section>
  );
}

export const meta: MetaFunction = () => [{ title: "Complaints — Admin — Raffle Rush" }];

export function ErrorBoundary() {
  return <SectionError title="The complaints could not be shown" back={{ to: "/admin/complaints", label: "Try the complaints again" }} />;
}
