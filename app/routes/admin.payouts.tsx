import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { ActionButton, Cell, Table, TextAction } from "~/components/admin-tabs";
import { SectionError } from "~/components/route-error";
import { payoutsTab } from "~/services/admin.server";
import { requireAdmin } from "~/services/auth.server";
import { utcMinute } from "~/shared/dates";
import { formatDecimalDollars as money } from "~/shared/money";

/** The payouts tab (ADR 043): the pending queue, the transfers waiting for their reference and the refunds held for review (ADR 050). */
export async function loader({ request }: LoaderFunctionArgs) {
  // Loaders run in parallel: the layout's guard does not cover this one.
  await requireAdmin(request);
  return payoutsTab();
}

export default function AdminPayouts() {
  const { pending, pendingAmount, transfers, reviews } = useLoaderData<typeof loader>();
  return (
    <section aria-label="Payouts" className="flex flex-col gap-3">
      <p>
        Pending: {pending.length} · {money(pendingAmount)}
      </p>
      <div className="flex flex-wrap gap-2">
        <ActionButton action="/admin/payouts/bulk-approve" label="Auto-approve up to $50" fields={{ maxAmount: "50" }} />
        <ActionButton action="/admin/payouts/bulk-approve" label="Auto-approve up to $100" fields={{ maxAmount: "100" }} />
      </div>
      <Table label="Pending payouts" head={["Player", "Amount", "Method", "Age", "Notes", ""]}>
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
              {p.awaitingSecondApproval ? "Awaiting a second approval." : ""}
            </Cell>
            <Cell>
              <span className="flex flex-wrap gap-1">
                <ActionButton action={`/admin/payouts/${p.id}/approve`} label="Approve" />
                <ActionButton action={`/admin/payouts/${p.id}/reject`} label="Reject" fields={{ reason: "Admin review" }} danger />
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
        {transfers.map((t) => (
          <tr key={t.legId} data-testid="transfer">
            <Cell label="Player">{t.player}</Cell>
            <Cell label="Amount">{money(t.amount)}</Cell>
            <Cell label="To">{t.destination}</Cell>
            <Cell label="Age">{t.ageMinutes} min</Cell>
            <Cell>{t.blocked ? <strong className="text-red-700 dark:text-red-400">{t.blocked}: not payable.</strong> : null}</Cell>
            <Cell>
              <span className="flex flex-col gap-1">
                <TextAction action={`/admin/payouts/${t.withdrawalId}/transfer`} name="reference" label="Reference" button="Record sent" />
                <TextAction action={`/admin/payouts/${t.withdrawalId}/transfer`} name="failure" label="Reason" button="Record failed" danger />
              </span>
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
