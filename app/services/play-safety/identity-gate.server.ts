import { identityGateOf } from "~/models/accounts/identity-check.server";
import type { Tx } from "~/models/db.server";
import { DomainError } from "~/shared/domain-error";
import { IDENTITY_FIRST_MESSAGE, rulesFor } from "~/shared/jurisdictions";

/**
 * Refuses what the player's jurisdiction allows only once identity is verified: the first
 * deposit, an entry (JURISDICTION_RULES; ADR 080). Verification is never undone, so a check
 * before the transaction that spends holds as well as one inside it.
 */
export async function assertIdentityFor(what: "deposit" | "entry", entrant: { userId: string } | { sessionHash: string }, client?: Tx) {
  const gate = await identityGateOf(entrant, client);
  if (!gate || gate.verified) return;
  const rules = rulesFor(gate.country);
  if (what === "deposit" ? rules.verifyBeforeDeposit : rules.verifyBeforeEntry) throw new DomainError("identity_required", IDENTITY_FIRST_MESSAGE);
}

/** Whether the player must verify before `what` (pages send them to /verify first). */
export async function identityNeededFor(what: "deposit" | "entry", userId: string): Promise<boolean> {
  try {
    await assertIdentityFor(what, { userId });
    return false;
  } catch (error) {
    if (error instanceof DomainError && error.code === "identity_required") return true;
    throw error;
  }
}
