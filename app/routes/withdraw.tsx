import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { EmailVerificationPanel } from "~/components/email-verification-panel";
import { PlayerShell } from "~/components/player-shell";
import { WithdrawPage } from "~/components/withdraw-page";
import { requireUser } from "~/web/auth.server";
import { emailVerification } from "~/services/accounts/email-tokens.server";
import { consume, LIMITS } from "~/services/system/rate-limit.server";
import { expectedFailure, readForm } from "~/web/http.server";
import { backWithToast } from "~/web/page-action.server";
import { METHOD_FIELDS, typedWithdrawal, WITHDRAWAL_METHODS, type WithdrawalMethod, type WithdrawalProblem } from "~/shared/withdrawal-rules";
import { listWithdrawals, requestWithdrawal, withdrawalPreview, WithdrawalRefused } from "~/services/money/withdrawals.server";
import { useUser } from "~/components/use-root-data";
import { PageError } from "~/components/route-error";
import { passActionHeaders } from "~/web/action-headers";

/** Each method's fields, posted under its name ("bank.routingNumber"); any other field sent (a CVV included) is dropped. */
const methodFields = (method: WithdrawalMethod) => z.object(Object.fromEntries(METHOD_FIELDS[method].map((f) => [f.name, z.string().optional()]))).optional();

/**
 * The form's shape only: the rules (minimum, cash balance, each method's fields) are
 * `validateWithdrawal`'s, shared with the browser and run by `requestWithdrawal`, whose
 * refusals are the spec's toasts.
 */
const schema = z.object({
  amount: z.string().optional(),
  method: z.string().optional(),
  venmo: methodFields("venmo"),
  paypal: methodFields("paypal"),
  bank: methodFields("bank"),
  debit_card: methodFields("debit_card"),
});

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const [history, preview, email] = await Promise.all([listWithdrawals(user.id), withdrawalPreview(user.id), emailVerification(user.id)]);
  return { history, ...preview, email };
}

/**
 * The withdrawal form: one answer whether it came from the page's fetcher or a
 * plain post: back to /withdraw with "Withdrawal Requested", or, refused, the page again
 * (4xx) with the reason and what was typed. API clients use POST /api/withdraw (same
 * service, same rules, JSON).
 */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const form = await readForm(request);
  const submission = parseWithZod(form, { schema });
  // What was typed, kept for the form when it comes back refused (not the secrets).
  const posted = Object.fromEntries([...form].filter((entry): entry is [string, string] => typeof entry[1] === "string"));
  const typed = typedWithdrawal(posted.amount ?? "", posted.method ?? "", posted);
  if (submission.status !== "success") {
    const problem = { title: "Withdrawal Failed", description: "The form could not be read: send the amount, the method and its fields as text" };
    return Response.json({ problem, typed }, { status: 400 });
  }
  const { amount = "", method = "" } = submission.value;
  const known = WITHDRAWAL_METHODS.find((m) => m === method);
  // Only the chosen method's fields are read.
  const fields = known ? (submission.value[known] ?? {}) : {};
  try {
    await consume(LIMITS.withdrawalsPerPlayer, user.id);
    await requestWithdrawal(user.id, { amount, method, fields });
    return backWithToast("/withdraw", {
      type: "success",
      title: "Withdrawal Requested",
      description: "Your withdrawal has been submitted and will be processed within 24 hours.",
    });
  } catch (error) {
    // Refused: the page again with what was typed and the reason beside its field, not an empty form (issue 33).
    const failure = expectedFailure(error);
    if (!failure) throw error;
    const problem: WithdrawalProblem = error instanceof WithdrawalRefused ? error.problem : { title: "Withdrawal Failed", description: failure.message };
    return Response.json({ problem, typed }, { status: failure.status, headers: failure.headers });
  }
}

export default function Withdraw() {
  const { history, backToCards, bonusBackAll, purchases, email } = useLoaderData<typeof loader>();
  const user = useUser();
  const refused = useActionData<typeof action>();
  return (
    <PlayerShell>
      {email.verified ? null : <EmailVerificationPanel email={email.email} />}
      <WithdrawPage
        balance={user.cashBalance}
        bonus={user.bonusBalance}
        backToCards={backToCards}
        bonusBackAll={bonusBackAll}
        purchases={purchases}
        history={history}
        refused={refused}
      />
    </PlayerShell>
  );
}

export const meta: MetaFunction = () => [{ title: "Withdraw — Raffle Rush" }];

/** A refused request's Retry-After stays on the page that shows it. */
export const headers = passActionHeaders("Retry-After");

export function ErrorBoundary() {
  return <PageError title="Withdrawals could not be shown" />;
}
