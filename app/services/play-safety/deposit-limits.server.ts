import type { PaymentPurpose } from "~/generated/prisma/client";
import { db } from "~/models/db.server";
import * as payments from "~/models/money/payment.server";
import { DomainError } from "~/shared/domain-error";
import { checkDeposit } from "./responsible-play.server";
import { vipDowngradeRefusal, type VipTierName } from "~/shared/vip";

/** What a payment about to start reserves against the player's deposit limits. */
export type DepositToReserve = { provider: string; purpose: PaymentPurpose; product: string; amountCents: number };

/**
 * The one place a deposit is checked before any payment is attempted: breaks and
 * self-exclusion, then the player's deposit limits (app/services/play-safety/responsible-play.server.ts).
 * Under the player's lock, the check and the payment's reservation (a pending payment,
 * `reserved:…` until the provider names it) commit together: purchases started at once
 * are checked one after another, each counting the ones before it. Returns its id.
 */
export async function reserveDeposit(userId: string, deposit: DepositToReserve, now = new Date()): Promise<string> {
  return db().$transaction(async (tx) => {
    await payments.lockPlayerForPayment(tx, userId);
    await checkDeposit(userId, deposit.amountCents, now, tx);
    if (deposit.purpose === "vip") {
      const refusal = vipDowngradeRefusal(await payments.vipOf(tx, userId), deposit.product as VipTierName, now);
      if (refusal) throw new DomainError("vip_downgrade", refusal);
    }
    const { id } = await payments.createPaymentRow(tx, { userId, ...deposit, providerPaymentId: payments.newReservedPaymentId(), createdAt: now });
    return id;
  });
}
