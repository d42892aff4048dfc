import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigation } from "@remix-run/react";
import { PageError } from "~/components/route-error";
import { PAYOUT_UPDATED, settleTransferAction } from "~/web/admin-actions.server";
import { requireAdmin } from "~/web/auth.server";
import { transferStep } from "~/services/money/transfers.server";
import { expectedFailure, readSubmission, uuidParam } from "~/web/http.server";
import { pageAction } from "~/web/page-action.server";
import { redirectWithToast } from "~/web/toast.server";
import { formatDecimalDollars as money } from "~/shared/money";

/**
 * The transfer step (PRODUCT.md "A transfer paid by hand shows the admin where to send
 * it"): the full destination, for an admin who may record this transfer (each view in the
 * audit log), and the forms that record it sent {reference} or failed {failure}. A payout
 * with nothing to send, or the admin's own, goes back to the payouts tab with the reason.
 * API clients use GET and POST /api/admin/payouts/:id/transfer.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const session = await requireAdmin(request);
  try {
    return await transferStep(session.user.id, uuidParam(params.id));
  } catch (error) {
    const message = expectedFailure(error)?.message;
    if (message === undefined) throw error;
    throw await redirectWithToast("/admin/payouts", { type: "error", title: "Error", description: message });
  }
}

/** Recorded: back to the payouts tab (this step has nothing left to show); refused: back here with the reason. */
export async function action({ request, params }: ActionFunctionArgs) {
  let recorded = false;
  const response = await pageAction(
    request,
    async () => {
      const outcome = await settleTransferAction(await requireAdmin(request), (schema) => readSubmission(request, schema), params.id);
      recorded = true;
      return outcome.toast;
    },
    { failureTitle: "Error", back: "/admin" },
  );
  return recorded ? redirectWithToast("/admin/payouts", PAYOUT_UPDATED) : response;
}

const field = "w-64 max-w-full rounded border bg-surface px-2 py-1 text-ink";
const button = "min-h-11 rounded border border-line-strong px-3 py-1 font-semibold";

export default function TransferStep() {
  const step = useLoaderData<typeof loader>();
  const busy = useNavigation().state !== "idle";
  return (
    <main className="mx-auto flex max-w-xl flex-col gap-4 p-4">
      <h1 className="text-2xl font-bold">Send the transfer</h1>
      <p>
        Send <strong>{money(step.amount)}</strong> to {step.player} by {step.method}, then record the reference your bank or wallet gave you. Only then is the
        payout completed.
      </p>
      <dl data-testid="transfer-destination" className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 rounded border p-3">
        {step.destination.map((d) => (
          <div key={d.label} className="contents">
            <dt className="font-semibold">{d.label}</dt>
            <dd className="break-all font-mono">{d.value}</dd>
          </div>
        ))}
      </dl>
      <p className="text-sm text-ink-muted">This view is written to the audit log. Do not copy these details anywhere else.</p>
      <Form method="post" className="flex flex-wrap items-end gap-2">
        <label className="flex flex-col gap-1">
          Reference
          <input name="reference" required minLength={3} maxLength={100} className={field} />
        </label>
        <button type="submit" disabled={busy} className={button}>
          Record sent
        </button>
      </Form>
      <Form method="post" className="flex flex-wrap items-end gap-2">
        <label className="flex flex-col gap-1">
          Reason it could not be sent
          <input name="failure" required minLength={3} maxLength={200} className={field} />
        </label>
        <button type="submit" disabled={busy} className={`${button} text-red-800 dark:text-red-300`}>
          Record failed
        </button>
      </Form>
      <Link to="/admin/payouts" className="underline">
        Back to the payouts
      </Link>
    </main>
  );
}

export const meta: MetaFunction = () => [{ title: "Send a transfer — Admin — Raffle Rush" }];

export function ErrorBoundary() {
  return <PageError title="The transfer could not be shown" back={{ to: "/admin/payouts", label: "Back to the payouts" }} />;
}
