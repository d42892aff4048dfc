import { db } from "../db.server";

/** The demo payment provider's own records (`demo_payments`), kept as Stripe keeps its payments and refunds. */
export type DemoPaymentStatus = "requires_payment" | "authorized" | "succeeded" | "failed" | "canceled";

export function createDemoPayment(id: string, amountCents: number, metadata: Record<string, string>) {
  return db().demoPayment.create({ data: { id, amountCents, status: "requires_payment", metadata }, select: { id: true } });
}

export function findDemoPayment(id: string) {
  return db().demoPayment.findUnique({ where: { id } });
}

/** Moves a payment still waiting for a card to `status`; any other payment stays as it is. */
export function settleWaitingDemoPayment(id: string, status: Exclude<DemoPaymentStatus, "requires_payment">) {
  return db().demoPayment.updateMany({ where: { id, status: "requires_payment" }, data: { status } });
}

/** A card authorised a payment still waiting for one; its funding is kept with it, as Stripe keeps the card's. */
export function authorizeDemoPayment(id: string, cardFunding: "credit" | "debit") {
  return db().$executeRaw`
    UPDATE demo_payments SET status = 'authorized', metadata = metadata || jsonb_build_object('cardFunding', ${cardFunding}::text)
    WHERE id = ${id} AND status = 'requires_payment'`;
}

/** Captures (succeeded) or releases (canceled) an authorised payment; any other stays as it is. */
export function settleAuthorizedDemoPayment(id: string, status: "succeeded" | "canceled") {
  return db().demoPayment.updateMany({ where: { id, status: "authorized" }, data: { status } });
}

/** Records a refund once under its id (a repeat with the same id records nothing). */
export function recordDemoRefund(id: string, amountCents: number, refundOf: string) {
  return db().demoPayment.createMany({ data: [{ id, amountCents, status: "succeeded", metadata: { refundOf } }], skipDuplicates: true });
}
