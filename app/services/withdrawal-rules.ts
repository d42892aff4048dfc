import { coinsToDecimal, parseDollars } from "./money";
import { POLICY } from "./policy";

/**
 * The withdrawal form's rules (spec section 5), in the spec's order and with its
 * messages, run in the browser and again on the server. No CVV: a payout to a debit
 * card does not need one (PRODUCT.md).
 */
export const WITHDRAWAL_METHODS = ["venmo", "paypal", "bank", "debit_card"] as const;
export type WithdrawalMethod = (typeof WITHDRAWAL_METHODS)[number];

export const METHOD_LABELS: Record<WithdrawalMethod, string> = {
  venmo: "Venmo",
  paypal: "PayPal",
  bank: "Bank transfer",
  debit_card: "Debit card",
};

/** The fields each method needs, with the spec's length caps. */
export const METHOD_FIELDS: Record<WithdrawalMethod, { name: string; label: string; maxLength: number; placeholder?: string }[]> = {
  venmo: [{ name: "username", label: "Venmo username", maxLength: 50 }],
  paypal: [{ name: "username", label: "PayPal email or username", maxLength: 100 }],
  bank: [
    { name: "routingNumber", label: "Routing number", maxLength: 9 },
    { name: "accountNumber", label: "Account number", maxLength: 17 },
  ],
  debit_card: [
    { name: "cardNumber", label: "Card number", maxLength: 19 },
    { name: "expiry", label: "Expiry (MM/YY)", maxLength: 5, placeholder: "MM/YY" },
  ],
};

export type WithdrawalInput = { amount: string; method: string; fields: Record<string, string | undefined> };
export type WithdrawalProblem = { title: string; description: string };

export type ValidWithdrawal = { amountCoins: bigint; method: WithdrawalMethod; fields: Record<string, string> };

/** Only cash (money paid in or won) can be withdrawn, never bonus coins (PRODUCT.md). */
export function insufficientCash(withdrawableCoins: bigint): WithdrawalProblem {
  return {
    title: "Insufficient Balance",
    description: `Only cash can be withdrawn: you can withdraw up to $${coinsToDecimal(withdrawableCoins)}. Bonus coins are for play only.`,
  };
}

/** Checks a request against the player's withdrawable cash (`withdrawableCoins`). */
export function validateWithdrawal(input: WithdrawalInput, withdrawableCoins: bigint): { ok: true; value: ValidWithdrawal } | { ok: false; problem: WithdrawalProblem } {
  const minimum = BigInt(POLICY.minimumWithdrawalCoins);
  const amountCoins = parseDollars(input.amount ?? "");
  if (amountCoins === undefined || amountCoins < minimum) {
    return { ok: false, problem: { title: "Minimum Withdrawal", description: `Minimum withdrawal amount is $${coinsToDecimal(minimum).replace(/\.00$/, "")}` } };
  }
  if (amountCoins > withdrawableCoins) return { ok: false, problem: insufficientCash(withdrawableCoins) };
  const method = WITHDRAWAL_METHODS.find((m) => m === input.method);
  const missing = { ok: false as const, problem: { title: "Missing Information", description: "Please fill in all required fields" } };
  if (!method) return missing;
  const fields: Record<string, string> = {};
  for (const field of METHOD_FIELDS[method]) {
    const value = input.fields[field.name]?.trim() ?? "";
    if (value === "" || value.length > field.maxLength) return missing;
    fields[field.name] = value;
  }
  return { ok: true, value: { amountCoins, method, fields } };
}

/**
 * The spec's `accountInfo` string: bank "Routing: .. | Account: ..", debit card
 * "Card: .. | Exp: .. | CVV: .." (the CVV is dropped here, on arrival), else the username.
 */
export function fieldsFromAccountInfo(method: string, accountInfo: string): Record<string, string> {
  const parts = Object.fromEntries(
    accountInfo.split("|").map((part) => {
      const [key, ...rest] = part.split(":");
      return [key!.trim().toLowerCase(), rest.join(":").trim()];
    }),
  );
  if (method === "bank") return { routingNumber: parts.routing ?? "", accountNumber: parts.account ?? "" };
  if (method === "debit_card") return { cardNumber: parts.card ?? "", expiry: parts.exp ?? "" };
  return { username: accountInfo.trim() };
}
