import { useFetcher } from "@remix-run/react";
import { useEffect, useState } from "react";
import { coinsToDecimal, parseDollars } from "~/shared/money";
import { POLICY } from "~/shared/policy";
import {
  METHOD_FIELDS,
  METHOD_LABELS,
  validateWithdrawal,
  WITHDRAWAL_METHODS,
  type TypedWithdrawal,
  type WithdrawalMethod,
  type WithdrawalProblem,
} from "~/shared/withdrawal-rules";
import { buttonClass, inputClass } from "./form-fields";
import { useShowToast } from "./toaster";
import { useHydrated } from "./use-hydrated";
import { utcMinute } from "~/shared/dates";
import { previewWithdrawal, type RefundablePurchase } from "~/shared/withdrawal-preview";

type Leg = { kind: string; amount: string; to: string; status: string; reason: string | null };
type History = {
  id: string;
  amount: string;
  method: string | null;
  destination: string;
  status: string;
  reason: string | null;
  legs: Leg[];
  createdAt: string;
}[];

const STATUS_STYLE: Record<string, string> = {
  completed: "bg-emerald-100 text-emerald-900",
  processing: "bg-sky-100 text-sky-900",
  failed: "bg-red-100 text-red-900",
  pending: "bg-amber-100 text-amber-900",
};

/** A request the server refused: the reason, and the form as typed (less its secrets). */
export type RefusedWithdrawal = { problem: WithdrawalProblem; typed: TypedWithdrawal };

/** The reason beside the field it is about; a field to type again (a secret, never sent back) says so. */
function FieldNote({ name, problem, reenter }: { name: string; problem?: WithdrawalProblem; reenter?: boolean }) {
  if (problem?.field === name) {
    return (
      <p id={`${name}-error`} role="alert" data-testid="withdraw-error" className="text-sm text-red-700 dark:text-red-400">
        {`${problem.title}: ${problem.description}`}
      </p>
    );
  }
  return reenter ? (
    <p id={`${name}-error`} data-testid="withdraw-reenter" className="text-sm text-ink-muted">
      For your security this is not kept: enter it again.
    </p>
  ) : null;
}

/** The input props that tie a field to its note. */
const noted = (name: string, problem: WithdrawalProblem | undefined, reenter: boolean) =>
  problem?.field === name || reenter
    ? { "aria-invalid": problem?.field === name || undefined, "aria-describedby": `${name}-error`, autoFocus: problem?.field === name }
    : {};

/**
 * The form itself. Without JavaScript every method's fields are shown and the server
 * reads the chosen one's; with it, only the chosen method's fields show, changing method
 * clears them, and a fetcher sends the form. A request that went through adds a
 * withdrawal to the history, whose newest id keys this form: it starts empty again. A
 * refused one keeps what was typed, the reason beside its field (issue 33).
 */
function WithdrawForm({
  balance,
  backToCards,
  purchases = [],
  bonusBalance = 0,
  refused,
}: {
  balance: number;
  backToCards: string;
  purchases?: RefundablePurchase[];
  bonusBalance?: number;
  refused?: RefusedWithdrawal;
}) {
  const hydrated = useHydrated();
  const showToast = useShowToast();
  const withdraw = useFetcher<RefusedWithdrawal>();
  const pending = withdraw.state !== "idle";
  const kept = refused?.typed;
  const [method, setMethod] = useState<WithdrawalMethod | "">(WITHDRAWAL_METHODS.find((m) => m === kept?.method) ?? "");
  const [amount, setAmount] = useState(kept?.amount ?? "");
  // By "method.name", as posted: without JavaScript every method's fields are on the page.
  const [typedFields, setFields] = useState<Record<string, string>>(kept?.fields ?? {});
  const fields = method ? Object.fromEntries(METHOD_FIELDS[method].map((f) => [f.name, typedFields[`${method}.${f.name}`] ?? ""])) : {};
  const [problem, setProblem] = useState(refused?.problem);
  const reenter = new Set(kept?.reenter);
  // The server's refusal of a fetcher's request: the reason beside its field, and the spec's toast.
  const [answer, setAnswer] = useState(withdraw.data);
  if (withdraw.data !== answer) {
    setAnswer(withdraw.data);
    if (withdraw.data?.problem) setProblem(withdraw.data.problem);
  }
  useEffect(() => {
    if (withdraw.data?.problem) showToast({ type: "error", title: withdraw.data.problem.title, description: withdraw.data.problem.description });
  }, [withdraw.data, showToast]);
  const balanceDollars = coinsToDecimal(BigInt(balance));
  const shown = hydrated ? (method ? [method] : []) : WITHDRAWAL_METHODS;
  // The split of the amount typed so far (money goes back the way it came): cards first.
  const typed = parseDollars(amount);
  const split = typed === undefined ? undefined : previewWithdrawal(purchases, typed, BigInt(bonusBalance));
  const toMethod = (coins: bigint) => previewWithdrawal(purchases, coins, BigInt(bonusBalance)).method;
  // A method is asked for only when part of the amount goes to it; the server decides the same from its own split.
  const methodOptional = split !== undefined && split.method === 0n;
  const incomplete = amount === "" || (!methodOptional && (!method || METHOD_FIELDS[method].some((f) => !(fields[f.name] ?? "").trim())));

  return (
    <withdraw.Form
      method="post"
      action="/withdraw"
      preventScrollReset
      // The spec's own checks and messages, not the browser's.
      noValidate
      className="flex flex-col gap-4 rounded-xl border border-line bg-surface p-4"
      onSubmit={(event) => {
        // The spec's checks and toasts first; the server checks the same rules again.
        const checked = validateWithdrawal({ amount, method, fields }, BigInt(balance), toMethod);
        setProblem(checked.ok ? undefined : checked.problem);
        if (!checked.ok) {
          event.preventDefault();
          showToast({ type: "error", title: checked.problem.title, description: checked.problem.description });
        }
      }}
    >
      {problem && !problem.field ? (
        <p
          role="alert"
          data-testid="withdraw-error"
          className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200"
        >
          {`${problem.title}: ${problem.description}`}
        </p>
      ) : null}
      <div className="flex flex-col gap-1">
        <label className="flex flex-col gap-1 text-sm font-semibold">
          Amount ($)
          <input
            {...noted("amount", problem, false)}
            name="amount"
            type="number"
            step="0.01"
            min={POLICY.minimumWithdrawalCoins / 100}
            max={balanceDollars}
            inputMode="decimal"
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
            className={inputClass}
          />
        </label>
        <FieldNote name="amount" problem={problem} />
      </div>
      <div className="flex flex-col gap-1">
        <label className="flex flex-col gap-1 text-sm font-semibold">
          <span>
            Method{" "}
            <span className="font-normal text-ink-muted" data-testid="method-need">
              {methodOptional
                ? "(not needed: all of it goes back to your cards)"
                : backToCards === "0.00"
                  ? null
                  : `(needed only for the part above $${backToCards}, which goes back to your cards)`}
            </span>
          </span>
          <select
            {...noted("method", problem, false)}
            name="method"
            value={method}
            onChange={(e) => {
              setMethod(e.target.value as WithdrawalMethod | "");
              setFields({});
            }}
            className={inputClass}
          >
            <option value="">Choose a method</option>
            {WITHDRAWAL_METHODS.map((m) => (
              <option key={m} value={m}>
                {METHOD_LABELS[m]}
              </option>
            ))}
          </select>
        </label>
        <FieldNote name="method" problem={problem} />
      </div>
      {shown.map((m) => (
        <fieldset key={m} className="flex flex-col gap-3">
          {hydrated ? null : <legend className="text-sm font-bold">{METHOD_LABELS[m]}</legend>}
          {METHOD_FIELDS[m].map((f) => (
            <div key={f.name} className="flex flex-col gap-1">
              <label className="flex flex-col gap-1 text-sm font-semibold">
                {f.label}
                <input
                  {...noted(`${m}.${f.name}`, problem, reenter.has(`${m}.${f.name}`))}
                  name={`${m}.${f.name}`}
                  maxLength={f.maxLength}
                  placeholder={f.placeholder}
                  autoComplete="off"
                  value={typedFields[`${m}.${f.name}`] ?? ""}
                  onChange={(e) => setFields((prev) => ({ ...prev, [`${m}.${f.name}`]: e.target.value }))}
                  className={inputClass}
                />
              </label>
              <FieldNote name={`${m}.${f.name}`} problem={problem} reenter={reenter.has(`${m}.${f.name}`)} />
            </div>
          ))}
        </fieldset>
      ))}
      {hydrated && split ? (
        <p className="text-sm" data-testid="withdraw-split">
          ${coinsToDecimal(split.cards)} back to your cards
          {split.method > 0n ? ` · $${coinsToDecimal(split.method)} to ${method ? METHOD_LABELS[method] : "the method you choose"}` : ""}
          {split.bonusBack > 0n ? (
            <span className="block" data-testid="withdraw-bonus-back">
              The refund takes back {split.bonusBack.toLocaleString("en-US")} bonus coins that came with those purchases.
            </span>
          ) : null}
        </p>
      ) : null}
      <button type="submit" className={buttonClass} disabled={hydrated && (incomplete || pending)}>
        {pending ? "Submitting..." : "Request Withdrawal"}
      </button>
    </withdraw.Form>
  );
}

/**
 * The withdrawal form (spec section 5, without the CVV) and the history; `balance` is the
 * player's withdrawable cash (bonus coins are never withdrawn).
 */
export function WithdrawPage({
  balance,
  bonus,
  backToCards,
  bonusBackAll = 0,
  purchases = [],
  history,
  refused,
}: {
  balance: number;
  bonus: number;
  backToCards: string;
  /** The bonus coins a refund of all of `backToCards` takes back. */
  bonusBackAll?: number;
  purchases?: RefundablePurchase[];
  history: History;
  /** The server's refusal of a request sent without JavaScript (the page's action data). */
  refused?: RefusedWithdrawal;
}) {
  const balanceDollars = coinsToDecimal(BigInt(balance));

  return (
    <main className="mx-auto flex max-w-2xl flex-col gap-6 px-4 py-8">
      <h1 className="text-3xl font-black">Withdraw</h1>
      <p>
        Withdrawable cash: <strong data-testid="withdrawable">${balanceDollars}</strong>
        {bonus > 0 ? ` (your ${bonus.toLocaleString("en-US")} bonus coins are for play only and cannot be withdrawn)` : ""}. Withdrawals from $
        {coinsToDecimal(BigInt(POLICY.minimumWithdrawalCoins))} are processed within {POLICY.withdrawalProcessingHours} hours, with no fees. Amounts over $
        {coinsToDecimal(BigInt(POLICY.identityCheckAboveCoins))} in 30 days need your identity verified first:{" "}
        <a href="/verify" className="underline">
          verify your identity
        </a>
        .
      </p>
      <p data-testid="withdraw-split-rule">
        Money goes back the way it came: the first <strong>${backToCards}</strong> of a withdrawal is refunded to the cards you paid with in the last 180 days
        (newest payment first); only the rest goes to the method you choose.
        {bonusBackAll > 0 ? (
          <>
            {" "}
            <span data-testid="withdraw-bonus-rule">
              A refund takes back the bonus coins that came with the purchase: up to <strong>{bonusBackAll.toLocaleString("en-US")} bonus coins</strong> if all
              ${backToCards} goes back to your cards.
            </span>
          </>
        ) : null}
      </p>
      <WithdrawForm key={history[0]?.id ?? "none"} balance={balance} backToCards={backToCards} purchases={purchases} bonusBalance={bonus} refused={refused} />
      <section aria-labelledby="history-title">
        <h2 id="history-title" className="text-xl font-bold">
          Withdrawal history
        </h2>
        {history.length === 0 ? (
          <p className="mt-2 text-ink-muted">No withdrawals yet</p>
        ) : (
          <ul className="mt-2 divide-y divide-line">
            {history.map((w) => (
              <li key={w.id} className="flex flex-col gap-1 py-2" data-testid="withdrawal">
                <span className="flex items-center justify-between gap-2">
                  <span>
                    <strong>${w.amount}</strong> · {w.destination}
                    <span className="block text-xs text-ink-muted">{utcMinute(w.createdAt)}</span>
                  </span>
                  <span className={`rounded px-2 py-0.5 text-xs font-bold ${STATUS_STYLE[w.status] ?? STATUS_STYLE.pending}`}>{w.status}</span>
                </span>
                {w.reason ? (
                  <span className="text-sm text-red-800 dark:text-red-300" data-testid="withdrawal-reason">
                    Why: {w.reason}
                  </span>
                ) : null}
                {w.legs.length > 1 || w.legs[0]?.kind === "card_refund" ? (
                  <ul className="ml-3 text-xs text-ink-muted">
                    {w.legs.map((leg, i) => (
                      <li key={i} data-testid="withdrawal-leg">
                        ${leg.amount} · {leg.to} · {leg.status}
                        {leg.reason && leg.reason !== w.reason ? ` (${leg.reason})` : ""}
                      </li>
                    ))}
                  </ul>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </section>
    </main>
  );
}
