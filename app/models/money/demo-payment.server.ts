import { db } from "../db.server";

/** The demo payment provider's own records (`demo_payments`), kept as Stripe keeps its payments and refunds. */
export type DemoPaymentStatus = "requires_payment" | "succeeded" | "failed" | "canceled";

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

/** Records a refund once under its id (a repeat with the same id records nothing). */
export function recordDemoRefund(id: string, amountCents: number, refundOf: string) {
  return db().demoPayment.createMany({ data: [{ id, amountCents, status: "succeeded", metadata: { refundOf } }], skipDuplicates: true });
}
