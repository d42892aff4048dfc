/**
 * The one place a deposit is checked against the player's limits, before any payment
 * is attempted (responsible play). Until players can set limits there are none; the
 * responsible-play work fills this in.
 */
export async function assertDepositAllowed(_userId: string, _amountCents: number, _now = new Date()): Promise<void> {}
