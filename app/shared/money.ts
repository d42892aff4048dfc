/**
 * Coins are integer cents (1 coin = US$0.01). These render them without ever
 * going through floating point.
 */
export function coinsToDecimal(coins: bigint): string {
  const negative = coins < 0n;
  const abs = negative ? -coins : coins;
  const text = `${abs / 100n}.${(abs % 100n).toString().padStart(2, "0")}`;
  return negative ? `-${text}` : text;
}

/** The minus sign of money shown to people (U+2212), before the currency symbol: "−$311.37". */
export const MINUS = "\u2212";

/** "$1,234.56", "−$311.37": money as people read it (the API's decimal strings keep "-311.37"). */
export function formatDollars(coins: bigint): string {
  const [whole, cents] = coinsToDecimal(coins).replace("-", "").split(".");
  const grouped = whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `${coins < 0n ? MINUS : ""}$${grouped}.${cents}`;
}

/** The same, from a decimal dollar string as the services return them ("-311.37" → "−$311.37"). */
export function formatDecimalDollars(decimal: string): string {
  const match = /^(-?)(\d+)\.(\d{2})$/.exec(decimal);
  if (!match) return decimal;
  const coins = BigInt(match[2]!) * 100n + BigInt(match[3]!);
  return formatDollars(match[1] ? -coins : coins);
}

/** Parses "12.34", "12.3" or "12" dollars into coins; undefined for anything else. */
export function parseDollars(text: string): bigint | undefined {
  const match = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!match) return undefined;
  return BigInt(match[1]!) * 100n + BigInt((match[2] ?? "").padEnd(2, "0"));
}
