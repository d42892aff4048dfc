import { db } from "../db.server";

/**
 * Everything we hold about one player, for "Download my data" (docs/decisions/035). Secrets
 * are left out: the password hash, session tokens (only their hashes are stored anyway),
 * encrypted payout details and card tokens.
 */
export async function playerData(userId: string) {
  const client = db();
  const [profile, identities, sessions, depositLimits, transactions, entries, payments, withdrawals, spins, vipClaims, vipSubscriptions, accounts, passkeys] =
    await Promise.all([
      client.user.findUnique({
        where: { id: userId },
        select: {
          id: true,
          email: true,
          username: true,
          firstName: true,
          dateOfBirth: true,
          country: true,
          region: true,
          createdAt: true,
          termsAcceptedAt: true,
          vipTier: true,
          vipExpiry: true,
          totalWinnings: true,
          identityVerifiedAt: true,
          excludedUntil: true,
          exclusionKind: true,
          realityCheckMinutes: true,
          suspendedAt: true,
        },
      }),
      client.userIdentity.findMany({ where: { userId }, select: { provider: true, createdAt: true }, orderBy: { createdAt: "asc" } }),
      client.session.findMany({
        where: { userId },
        select: { createdAt: true, expiresAt: true, playSeenAt: true, userAgent: true, ip: true },
        orderBy: { createdAt: "asc" },
      }),
      client.depositLimit.findMany({
        where: { userId },
        select: { period: true, amountCents: true, pendingAmountCents: true, pendingRemoval: true, pendingFrom: true },
      }),
      client.ledgerTransaction.findMany({
        where: { userId },
        select: {
          createdAt: true,
          kind: true,
          reference: true,
          raffleId: true,
          memo: true,
          postings: { where: { account: { userId } }, select: { amount: true, account: { select: { kind: true } } } },
        },
        orderBy: { createdAt: "asc" },
      }),
      client.entry.findMany({
        where: { userId },
        select: { raffleId: true, position: true, cash: true, bonus: true, createdAt: true },
        orderBy: { createdAt: "asc" },
      }),
      client.payment.findMany({
        where: { userId },
        select: {
          createdAt: true,
          settledAt: true,
          provider: true,
          purpose: true,
          product: true,
          amountCents: true,
          currency: true,
          coinsCredited: true,
          refundedCents: true,
          disputedCents: true,
          status: true,
        },
        orderBy: { createdAt: "asc" },
      }),
      client.withdrawal.findMany({
        where: { userId },
        select: {
          createdAt: true,
          decidedAt: true,
          amount: true,
          method: true,
          destinationMasked: true,
          status: true,
          rejectReason: true,
          failureReason: true,
          legs: { select: { kind: true, amount: true, status: true, settledAt: true }, orderBy: { position: "asc" } },
        },
        orderBy: { createdAt: "asc" },
      }),
      client.dailySpin.findMany({ where: { userId }, select: { reward: true, spunAt: true }, orderBy: { spunAt: "asc" } }),
      client.vipDailyClaim.findMany({ where: { userId }, select: { day: true, tier: true, amount: true }, orderBy: { day: "asc" } }),
      client.vipSubscription.findMany({ where: { userId }, select: { tier: true, startsAt: true, endsAt: true }, orderBy: { startsAt: "asc" } }),
      client.ledgerAccount.findMany({ where: { userId }, select: { kind: true, balance: true } }),
      // Passkeys by name and dates; their credential ids and public keys stay out.
      client.passkey.findMany({
        where: { userId },
        select: { name: true, deviceType: true, backedUp: true, createdAt: true, lastUsedAt: true },
        orderBy: { createdAt: "asc" },
      }),
    ]);
  return { profile, identities, sessions, depositLimits, transactions, entries, payments, withdrawals, spins, vipClaims, vipSubscriptions, accounts, passkeys };
}
