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

/** "$1,234.56" */
export function formatDollars(coins: bigint): string {
  const [whole, cents] = coinsToDecimal(coins).replace("-", "").split(".");
  const grouped = whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `${coins < 0n ? "-" : ""}$${grouped}.${cents}`;
}

/** Parses "12.34", "12.3" or "12" dollars into coins; undefined for anything else. */
export function parseDollars(text: string): bigint | undefined {
  const match = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!match) return undefined;
  return BigInt(match[1]!) * 100n + BigInt((match[2] ?? "").padEnd(2, "0"));
}
