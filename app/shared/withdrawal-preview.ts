import { bonusCoveredBy, smaller } from "./coin-mix";

/**
 * What a withdrawal of `amount` coins would do (PRODUCT.md "The withdrawal preview says
 * everything that will happen"), run on the server and, as the amount is typed, in the
 * browser: the part refunded to the cards (newest payment first), the part sent to the
 * chosen method, and the bonus coins the refunds take back with the purchases, as far as
 * the player still has them (`bonusBalance`).
 */
export type RefundablePurchase = { amountCents: number; refundableCents: number; coinsCredited: string };

export function previewWithdrawal(payments: RefundablePurchase[], amount: bigint, bonusBalance: bigint) {
  let left = amount;
  let bonusBack = 0n;
  for (const p of payments) {
    if (left <= 0n) break;
    const part = smaller(BigInt(p.refundableCents), left);
    // What earlier refunds and claims took of the payment is off its refundable part.
    bonusBack += bonusCoveredBy({ amountCents: p.amountCents, coinsCredited: BigInt(p.coinsCredited) }, p.amountCents - p.refundableCents, Number(part));
    left -= part;
  }
  return { cards: amount - left, method: left, bonusBack: smaller(bonusBack, bonusBalance) };
}
