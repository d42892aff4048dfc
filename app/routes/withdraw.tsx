import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { EmailVerificationPanel } from "~/components/email-verification-panel";
import { PlayerShell } from "~/components/player-shell";
import { WithdrawPage } from "~/components/withdraw-page";
import { requireUser } from "~/services/auth.server";
import { emailVerification } from "~/services/email-tokens.server";
import { consume, LIMITS } from "~/services/rate-limit.server";
import { errorResponse, expectedErrorMessage, readForm } from "~/infra/http.server";
import { backWithToast } from "~/infra/page-action.server";
import { METHOD_FIELDS, WITHDRAWAL_METHODS } from "~/shared/withdrawal-rules";
import { listWithdrawals, requestWithdrawal, withdrawalPreview, WithdrawalRefused } from "~/services/withdrawals.server";
import { useUser } from "~/components/use-root-data";
import { PageError } from "~/components/route-error";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const [history, preview, email] = await Promise.all([listWithdrawals(user.id), withdrawalPreview(user.id), emailVerification(user.id)]);
  return { history, ...preview, email };
}

/**
 * The withdrawal form (ADR 040): one answer whether it came from the page's fetcher or a
 * plain post, back to /withdraw with "Withdrawal Requested" or the reason. API clients
 * use POST /api/withdraw (same service, same rules, JSON).
 */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const form = await readForm(request);
  const method = String(form.get("method") ?? "");
  const known = WITHDRAWAL_METHODS.find((m) => m === method);
  // Only the chosen method's fields are read; anything else sent (a CVV included) is ignored.
  const fields = Object.fromEntries((known ? METHOD_FIELDS[known] : []).map((f) => [f.name, String(form.get(`${method}.${f.name}`) ?? "")]));
  try {
    await consume(LIMITS.withdrawalsPerPlayer, user.id);
    await requestWithdrawal(user.id, { amount: String(form.get("amount") ?? ""), method, fields });
    return backWithToast("/withdraw", {
      type: "success",
      title: "Withdrawal Requested",
      description: "Your withdrawal has been submitted and will be processed within 24 hours.",
    });
  } catch (error) {
    if (error instanceof WithdrawalRefused) return backWithToast("/withdraw", { type: "error", ...error.problem });
    if (!errorResponse(error)) throw error;
    return backWithToast("/withdraw", { type: "error", title: "Withdrawal Failed", description: expectedErrorMessage(error) || "Failed to process withdrawal" });
  }
}

export default function Withdraw() {
  const { history, backToCards, email } = useLoaderData<typeof loader>();
  const user = useUser();
  return (
    <PlayerShell>
      {email.verified ? null : <EmailVerificationPanel email={email.email} />}
      <WithdrawPage balance={user.cashBalance} bonus={user.bonusBalance} backToCards={backToCards} history={history} />
    </PlayerShell>
  );
}

export const meta: MetaFunction = () => [{ title: "Withdraw — Raffle Rush" }];

export function ErrorBoundary() {
  return <PageError title="Withdrawals could not be shown" />;
}
