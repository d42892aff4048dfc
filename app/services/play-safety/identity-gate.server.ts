import { identityGateOf } from "~/models/accounts/identity-check.server";
import type { Tx } from "~/models/db.server";
import { DomainError } from "~/shared/domain-error";
import { IDENTITY_FIRST_MESSAGE, rulesFor } from "~/shared/jurisdictions";

/**
 * Refuses a first deposit where the player's jurisdiction asks for identity first
 * (JURISDICTION_RULES; ADR 080). Verification is never undone, so a check before the
 * transaction that pays holds as well as one inside it. Entries are checked by enter_raffles.
 */
export async function assertIdentityForDeposit(userId: string, client?: Tx) {
  const gate = await identityGateOf(userId, client);
  if (gate && !gate.verified && rulesFor(gate.country).verifyBeforeDeposit) throw new DomainError("identity_required", IDENTITY_FIRST_MESSAGE);
}

/** Whether the player must verify before depositing (the page sends them to /verify first). */
export async function identityNeededForDeposit(userId: string): Promise<boolean> {
  try {
    await assertIdentityForDeposit(userId);
    return false;
  } catch (error) {
    if (error instanceof DomainError && error.code === "identity_required") return true;
    throw error;
  }
}
