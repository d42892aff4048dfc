import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useFetcher, useLoaderData } from "@remix-run/react";
import { ActionButton, Cell, Table, TextAction } from "~/components/admin-tabs";
import { SectionError } from "~/components/route-error";
import { payoutsTab } from "~/services/back-office/admin.server";
import { requireAdmin } from "~/web/auth.server";
import { utcMinute } from "~/shared/dates";
import { formatDecimalDollars as money } from "~/shared/money";
import { REJECT_REASONS } from "~/shared/payout-decisions";

/** The payouts tab: the pending queue, the transfers waiting for their reference and the refunds held for review. */
export async function loader({ request }: LoaderFunctionArgs) {
  // Loaders run in parallel: the layout's guard does not cover this one.
  const session = await requireAdmin(request);
  return { ...(await payoutsTab()), adminId: session.user.id };
}

/** A table's one row when it has none, in words. */
function Empty({ columns, children }: { columns: number; children: string }) {
  return (
    <tr>
      <td colSpan={columns} className="px-2 py-2 text-ink-muted">
        {children}
      </td>
    </tr>
  );
}

/** Reject asks for the reason the player reads: one of the usual ones, the admin's words, or both. */
function RejectForm({ id }: { id: string }) {
  const fetcher = useFetcher();
  return (
    <fetcher.Form method="post" action={`/admin/payouts/${id}/reject`} preventScrollReset className="flex w-56 max-w-full min-w-0 flex-col gap-1 text-xs">
      {/* Narrow enough for a 360 px phone: the long reasons wrap in the list, not the page. */}
      <label className="flex min-w-0 flex-col">
        Reason the player reads
        <select name="choice" defaultValue="" className="w-full max-w-full rounded border bg-surface px-1 text-ink">
          <option value="">Other (write it below)</option>
          {REJECT_REASONS.map((r) => (
            <option key={r} value={r}>
              {r}
            </option>
          ))}
        </select>
      </label>
      <label className="flex min-w-0 flex-col">
        Message to the player
        <input name="reason" maxLength={200} className="w-full max-w-full rounded border bg-surface px-2 py-1 text-ink" />
      </label>
      <button
        type="submit"
        disabled={fetcher.state !== "idle"}
        className="min-h-6 rounded border border-line-strong px-2 py-0.5 font-semibold text-red-800 max-sm:min-h-11 dark:text-red-300"
      >
        Reject
      </button>
    </fetcher.Form>
  );
}

export default function AdminPayouts() {
  const { pending, pendingAmount, transfers, reviews, adminId } = useLoaderData<typeof loader>();
  return (
    <section aria-label="Payouts" className="flex flex-col gap-3">
      <p>
        Pending: {pending.length} · {money(pendingAmount)}
      </p>
      {/* Each opens a confirmation with the count and the total (a plain GET form works without JavaScript). */}
      <div className="flex flex-wrap gap-2">
        {["50", "100"].map((max) => (
          <Form key={max} method="get" action="/admin/payouts/bulk-approve">
            <input type="hidden" name="maxAmount" value={max} />
            <button type="submit" className="min-h-6 rounded border border-line-strong px-2 py-0.5 text-xs font-semibold max-sm:min-h-11">
              Auto-approve up to ${max}
            </button>
          </Form>
        ))}
      </div>
      <Table label="Pending payouts" head={["Player", "Amount", "Method", "Age", "Notes", ""]}>
        {pending.length === 0 ? <Empty columns={6}>No payouts are waiting for a decision.</Empty> : null}
        {pending.map((p) => (
          <tr key={p.id} data-testid="payout">
            <Cell label="Player">{p.player}</Cell>
            <Cell label="Amount">{money(p.amount)}</Cell>
            <Cell label="Method">{p.destination}</Cell>
            <Cell label="Age">{p.ageMinutes} min</Cell>
            <Cell>
              {p.blocked ? (
                <strong className="text-red-700 dark:text-red-400" data-testid="payout-blocked">
                  {p.blocked}: not payable.{" "}
                </strong>
              ) : null}
              {p.requiresVerification ? "Identity verification required. " : ""}
              {p.awaitingSecondApproval ? "Awaiting a second approval. " : p.needsTwoApprovals ? "Needs two admins' approval. " : ""}
              {p.userId === adminId ? "Your own payout: another admin decides it." : ""}
            </Cell>
            <Cell>
              <span className="flex flex-wrap gap-1">
                {/* No button for what the admin may not do: their own payout is another admin's to decide. */}
                {p.userId === adminId ? null : (
                  <>
                    <ActionButton action={`/admin/payouts/${p.id}/approve`} label="Approve" />
                    <RejectForm id={p.id} />
                  </>
                )}
              </span>
            </Cell>
          </tr>
        ))}
      </Table>
      <h2 className="text-xl font-bold">Transfers waiting for their reference</h2>
      <p className="text-sm">
        Approved payouts whose remainder (beyond refunds to the player&apos;s cards) goes to the method they chose. Send it, then record the bank or wallet
        reference: only then is it completed. If it cannot be sent, record why: the amount goes back to the player&apos;s cash and they are told the reason.
      </p>
      <Table label="Transfers waiting for their reference" head={["Player", "Amount", "To", "Age", "Notes", ""]}>
        {transfers.length === 0 ? <Empty columns={6}>No transfers are waiting to be sent.</Empty> : null}
        {transfers.map((t) => (
          <tr key={t.legId} data-testid="transfer">
            <Cell label="Player">{t.player}</Cell>
            <Cell label="Amount">{money(t.amount)}</Cell>
            <Cell label="To">{t.destination}</Cell>
            <Cell label="Age">{t.ageMinutes} min</Cell>
            <Cell>{t.blocked ? <strong className="text-red-700 dark:text-red-400">{t.blocked}: not payable.</strong> : null}</Cell>
            <Cell>
              {/* The full destination is shown on the transfer step only, and each view is audited. */}
              <Link to={`/admin/payouts/${t.withdrawalId}/transfer`} className="font-semibold underline">
                Send and record
              </Link>
            </Cell>
          </tr>
        ))}
      </Table>
      <h2 className="text-xl font-bold">Refunds held for review</h2>
      <p className="text-sm">
        The provider refused these refunds to the player&apos;s card, because the payment was refunded or disputed already: the amount stays held and the
        account is flagged. Look the payment up at the provider. If the money reached the card (a refund made there, a charge-back), record its reference: the
        refund completes. If it did not, record why: the amount goes back to the player&apos;s cash and they are told the reason.
      </p>
      <Table label="Refunds held for review" head={["Player", "Amount", "Payment", "Age", "Refused because", ""]}>
        {reviews.length === 0 ? <Empty columns={6}>No refunds are held for review.</Empty> : null}
        {reviews.map((r) => (
          <tr key={r.legId} data-testid="refund-review">
            <Cell label="Player">{r.player}</Cell>
            <Cell label="Amount">{money(r.amount)}</Cell>
            <Cell label="Payment">
              {r.payment ? (
                <>
                  <span className="break-all">{r.payment.id}</span> ({money(r.payment.amount)}, {utcMinute(r.payment.paidAt)})
                </>
              ) : (
                "—"
              )}
            </Cell>
            <Cell label="Age">{r.ageMinutes} min</Cell>
            <Cell label="Refused because">{r.reason}</Cell>
            <Cell>
              <span className="flex flex-col gap-1">
                <TextAction action={`/admin/refunds/${r.legId}/reconcile`} name="reference" label="Reference" button="Record reached the card" />
                <TextAction action={`/admin/refunds/${r.legId}/reconcile`} name="failure" label="Reason" button="Record not refunded" danger />
              </span>
            </Cell>
          </tr>
        ))}
      </Table>
    </section>
  );
}

export const meta: MetaFunction = () => [{ title: "Payouts — Admin — Raffle Rush" }];

export function ErrorBoundary() {
  return <SectionError title="The payouts could not be shown" back={{ to: "/admin/payouts", label: "Try the payouts again" }} />;
}
