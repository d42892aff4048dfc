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

/**
 * The fields each method needs, with the spec's length caps. A `secret` one (a full card or
 * account number) is never sent back to the page, not even to a form refused for another reason.
 */
export const METHOD_FIELDS: Record<WithdrawalMethod, { name: string; label: string; maxLength: number; placeholder?: string; secret?: true }[]> = {
  venmo: [{ name: "username", label: "Venmo username", maxLength: 50, placeholder: "@your-handle" }],
  paypal: [{ name: "username", label: "PayPal email", maxLength: 100, placeholder: "you@example.com" }],
  bank: [
    { name: "routingNumber", label: "Routing number", maxLength: 9 },
    { name: "accountNumber", label: "Account number", maxLength: 17, secret: true },
  ],
  debit_card: [
    { name: "cardNumber", label: "Card number", maxLength: 19, secret: true },
    { name: "expiry", label: "Expiry (MM/YY)", maxLength: 5, placeholder: "MM/YY" },
  ],
};

export type WithdrawalInput = { amount: string; method: string; fields: Record<string, string | undefined> };
/** `field`: the form field the problem is about ("amount", "method", "venmo.username"...), shown next to it. */
export type WithdrawalProblem = { title: string; description: string; field?: string };

/** `method` is null when nothing goes to one: the whole amount goes back to the cards. */
export type ValidWithdrawal = { amountCoins: bigint; method: WithdrawalMethod | null; fields: Record<string, string> };

/** Only cash (money paid in or won) can be withdrawn, never bonus coins (PRODUCT.md). */
export function insufficientCash(withdrawableCoins: bigint): WithdrawalProblem {
  return {
    title: "Insufficient Balance",
    description: `Only cash can be withdrawn: you can withdraw up to $${coinsToDecimal(withdrawableCoins)}. Bonus coins are for play only.`,
    field: "amount",
  };
}

/**
 * Checks a request against the player's withdrawable cash (`withdrawableCoins`).
 * `toMethod(amount)` is how much of the amount goes to the chosen method once the cards
 * are paid back (PRODUCT.md "Money goes back the way it came"): when it is nothing, no
 * method is asked for; one given is still checked and kept, for a request that races
 * another for the same card payments may need it after all.
 */
export function validateWithdrawal(
  input: WithdrawalInput,
  withdrawableCoins: bigint,
  toMethod: (amountCoins: bigint) => bigint = (amountCoins) => amountCoins,
): { ok: true; value: ValidWithdrawal } | { ok: false; problem: WithdrawalProblem } {
  const minimum = BigInt(POLICY.minimumWithdrawalCoins);
  // Cents are the smallest unit: a third decimal is refused, never rounded away.
  if (/^\s*\d*\.\d{3,}\s*$/.test(input.amount ?? "")) {
    return {
      ok: false,
      problem: { title: "Invalid Amount", description: "Enter the amount in dollars and cents, with at most two decimals", field: "amount" },
    };
  }
  const amountCoins = parseDollars(input.amount ?? "");
  if (amountCoins === undefined || amountCoins < minimum) {
    return {
      ok: false,
      problem: { title: "Minimum Withdrawal", description: `Minimum withdrawal amount is $${coinsToDecimal(minimum).replace(/\.00$/, "")}`, field: "amount" },
    };
  }
  if (amountCoins > withdrawableCoins) return { ok: false, problem: insufficientCash(withdrawableCoins) };
  const method = WITHDRAWAL_METHODS.find((m) => m === input.method);
  const blank = !method || METHOD_FIELDS[method].every((field) => !input.fields[field.name]?.trim());
  if (blank && toMethod(amountCoins) <= 0n) return { ok: true, value: { amountCoins, method: null, fields: {} } };
  const missing = (field: string) => ({
    ok: false as const,
    problem: { title: "Missing Information", description: "Please fill in all required fields", field },
  });
  if (!method) return missing("method");
  const fields: Record<string, string> = {};
  for (const field of METHOD_FIELDS[method]) {
    const value = input.fields[field.name]?.trim() ?? "";
    if (value === "" || value.length > field.maxLength) return missing(`${method}.${field.name}`);
    fields[field.name] = value;
  }
  if (method === "venmo" || method === "paypal") {
    const account = fields.username!;
    const field = `${method}.username`;
    // Card data typed into a wallet field is refused whole: never stored, masked or echoed.
    if (holdsCardData(account)) return { ok: false, problem: { ...CARD_DATA_PROBLEM, field } };
    if (method === "paypal" && !PAYPAL_EMAIL.test(account)) {
      return { ok: false, problem: { title: "Invalid PayPal Account", description: "Enter the email address of your PayPal account", field } };
    }
    if (method === "venmo" && !VENMO_HANDLE.test(account)) {
      return {
        ok: false,
        problem: { title: "Invalid Venmo Username", description: "Enter your Venmo username: 5 to 30 letters, digits, hyphens or underscores", field },
      };
    }
  }
  return { ok: true, value: { amountCoins, method, fields } };
}

/** A refused request's form as the page shows it again: what was typed, less the secrets (`secret` fields, card data anywhere). */
export type TypedWithdrawal = { amount: string; method: string; fields: Record<string, string>; reenter: string[] };

/** `posted`: every method's fields, by "method.name" (without JavaScript the page shows them all). */
export function typedWithdrawal(amount: string, method: string, posted: Record<string, string | undefined>): TypedWithdrawal {
  const fields: Record<string, string> = {};
  const reenter: string[] = [];
  for (const m of WITHDRAWAL_METHODS) {
    for (const field of METHOD_FIELDS[m]) {
      const key = `${m}.${field.name}`;
      const value = posted[key] ?? "";
      if (value === "") continue;
      if (field.secret || holdsCardData(value)) reenter.push(key);
      else fields[key] = value;
    }
  }
  return { amount: holdsCardData(amount) ? "" : amount.slice(0, 20), method: WITHDRAWAL_METHODS.find((m) => m === method) ?? "", fields, reenter };
}

/** A PayPal account is an email address. */
const PAYPAL_EMAIL = /^[^\s@|:]+@[^\s@|:]+\.[^\s@|:.]{2,}$/;
/** A Venmo username, with or without its "@": 5 to 30 letters, digits, hyphens or underscores. */
const VENMO_HANDLE = /^@?[A-Za-z0-9_-]{5,30}$/;

export const CARD_DATA_PROBLEM: WithdrawalProblem = {
  title: "Card Details Not Accepted",
  description: "Never enter a card number or security code here. To be paid to a card, choose Debit card (no security code needed).",
};

/** Runs of digits, each digit maybe separated from the next by up to two spaces or punctuation marks. */
const DIGIT_RUN = /\d(?:[^\p{L}\p{N}]{0,2}\d)*/gu;
/** A card's security code by its label: "CVV: 654", "cvc=123", "security code 1234". */
const LABELLED_CVV = /(?:cvv2?|cvc2?|csc|cid|security[\s_-]*code|card[\s_-]*verification(?:[\s_-]*(?:value|code))?)[^\p{L}\p{N}]{0,4}\d{3,4}(?!\d)/iu;

/**
 * True when the text holds a card number (13 to 19 digits passing the Luhn check, written
 * plainly or in groups, alone or inside a longer run) or a labelled security code.
 */
export function holdsCardData(text: string): boolean {
  if (LABELLED_CVV.test(text)) return true;
  for (const run of text.match(DIGIT_RUN) ?? []) {
    const digits = run.replace(/\D/g, "");
    for (let length = 13; length <= Math.min(19, digits.length); length++) {
      for (let start = 0; start + length <= digits.length; start++) {
        if (luhnValid(digits.slice(start, start + length))) return true;
      }
    }
  }
  return false;
}

function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
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
