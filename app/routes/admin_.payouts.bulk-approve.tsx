import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigation } from "@remix-run/react";
import { PageError } from "~/components/route-error";
import { bulkApproveAction, bulkSchema } from "~/web/admin-actions.server";
import { bulkCandidates } from "~/services/money/bulk-approval.server";
import { requireAdmin } from "~/web/auth.server";
import { jsonError, queryParams, readSubmission } from "~/web/http.server";
import { pageAction } from "~/web/page-action.server";
import { redirectWithToast } from "~/web/toast.server";
import { formatDecimalDollars as money } from "~/shared/money";

/**
 * Bulk approval, confirmed (PRODUCT.md: decisions that cost money are deliberate): GET
 * shows how many payouts up to {maxAmount} ($50 or $100) one approval would settle and
 * their total; the form posts the same {maxAmount} to approve them. Then back to the
 * payouts tab with the count. API clients use /api/admin/payouts/bulk-approve.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const session = await requireAdmin(request);
  const parsed = bulkSchema.safeParse({ maxAmount: queryParams(request).get("maxAmount") ?? "" });
  if (!parsed.success) throw jsonError(400, "maxAmount must be 50 or 100");
  const { count, total } = await bulkCandidates(session.user.id, parsed.data.maxAmount * 100);
  return { maxAmount: parsed.data.maxAmount, count, total };
}

export async function action({ request, params }: ActionFunctionArgs) {
  let done: Awaited<ReturnType<typeof bulkApproveAction>> | undefined;
  const response = await pageAction(
    request,
    async () => {
      done = await bulkApproveAction(await requireAdmin(request), (schema) => readSubmission(request, schema), params.id);
      return done.toast;
    },
    { failureTitle: "Error", back: "/admin" },
  );
  return done ? redirectWithToast("/admin/payouts", done.toast) : response;
}

export default function BulkApprove() {
  const { maxAmount, count, total } = useLoaderData<typeof loader>();
  const busy = useNavigation().state !== "idle";
  return (
    <main className="mx-auto flex max-w-xl flex-col gap-4 p-4">
      <h1 className="text-2xl font-bold">Approve payouts up to ${maxAmount}</h1>
      {count === 0 ? (
        <p data-testid="bulk-summary">No payout up to ${maxAmount} can be approved in bulk now: each needs a decision of its own, or none is waiting.</p>
      ) : (
        <>
          <p data-testid="bulk-summary">
            This approves <strong>{count}</strong> {count === 1 ? "payout" : "payouts"}, <strong>{money(total)}</strong> in all. Payouts that need an identity
            check or a second admin are left for a decision of their own.
          </p>
          <Form method="post" className="flex gap-2">
            <input type="hidden" name="maxAmount" value={maxAmount} />
            <button type="submit" disabled={busy} className="min-h-11 rounded border border-line-strong px-3 py-1 font-semibold">
              Approve {count} {count === 1 ? "payout" : "payouts"}
            </button>
          </Form>
        </>
      )}
      <Link to="/admin/payouts" className="underline">
        Back to the payouts
      </Link>
    </main>
  );
}

export const meta: MetaFunction = () => [{ title: "Approve payouts — Admin — Raffle Rush" }];

export function ErrorBoundary() {
  return <PageError title="The payouts could not be counted" back={{ to: "/admin/payouts", label: "Back to the payouts" }} />;
}
