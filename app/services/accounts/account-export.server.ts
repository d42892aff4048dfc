import { playerData } from "~/models/accounts/user-data.server";
import { complaintsOf } from "~/models/back-office/complaint.server";

/**
 * "Download my data" (docs/decisions/035-closing-an-account.md): the player's profile,
 * settings, history, sessions and consents as one JSON document, generated on request.
 * Coins are integers written as strings (JSON numbers lose precision past 2^53).
 */
export async function exportAccountData(userId: string, now = new Date()): Promise<string> {
  const [data, complaints] = await Promise.all([playerData(userId), complaintsOf(userId)]);
  if (!data.profile) throw new Error(`no user ${userId}`);
  const { profile, accounts, transactions, ...rest } = data;
  const document = {
    format: "raffle-rush-account-export/1",
    generatedAt: now,
    profile: {
      id: profile.id,
      email: profile.email,
      username: profile.username,
      firstName: profile.firstName,
      dateOfBirth: profile.dateOfBirth,
      country: profile.country,
      region: profile.region,
      createdAt: profile.createdAt,
      vipTier: profile.vipTier,
      vipExpiry: profile.vipExpiry,
      totalWinnings: profile.totalWinnings,
      identityVerifiedAt: profile.identityVerifiedAt,
      suspendedAt: profile.suspendedAt,
      signInProviders: rest.identities,
      passkeys: rest.passkeys,
    },
    settings: {
      realityCheckMinutes: profile.realityCheckMinutes,
      depositLimits: rest.depositLimits,
      breakOrExclusion: profile.excludedUntil ? { kind: profile.exclusionKind, until: profile.excludedUntil } : null,
      note: "Display and sound settings are kept in your browser only, not on our servers.",
    },
    consents: { termsAcceptedAt: profile.termsAcceptedAt },
    balances: Object.fromEntries(accounts.map((a) => [a.kind, a.balance])),
    history: {
      ledger: transactions.map((t) => ({
        at: t.createdAt,
        kind: t.kind,
        reference: t.reference,
        raffleId: t.raffleId,
        memo: t.memo,
        movements: t.postings.map((p) => ({ account: p.account.kind, amount: p.amount })),
      })),
      entries: rest.entries,
      payments: rest.payments,
      withdrawals: rest.withdrawals,
      dailySpins: rest.spins,
      vipDailyClaims: rest.vipClaims,
      vipSubscriptions: rest.vipSubscriptions,
      // With their answers (docs/decisions/081-complaints.md).
      complaints: complaints.map(({ userId: _owner, ...complaint }) => complaint),
    },
    sessions: rest.sessions,
  };
  return JSON.stringify(document, (_key, value: unknown) => (typeof value === "bigint" ? value.toString() : value), 2);
}
