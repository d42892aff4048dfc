/**
 * Errors of the domain are values with a code; routes map each code to an HTTP
 * status and the spec's message in one place (app/services/http-errors.server.ts).
 */
export type DomainErrorCode =
  | "raffle_not_found"
  | "raffle_not_open"
  | "raffle_closed"
  | "insufficient_coins"
  | "over_ticket_cap"
  | "vip_only"
  | "user_not_found"
  | "spin_not_ready"
  | "not_vip"
  | "already_claimed"
  | "payment_not_found"
  | "unknown_product"
  | "invalid_input"
  | "withdrawal_invalid"
  | "withdrawal_not_found"
  | "withdrawal_decided"
  | "verification_required"
  | "second_approver_required"
  | "payee_blocked"
  | "own_account"
  | "excluded"
  /** An admin account entering a raffle: staff do not play (PRODUCT.md). */
  | "staff"
  | "jurisdiction"
  | "vip_downgrade"
  | "deposit_limit"
  | "signed_out"
  | "not_onboarded"
  /** A player entering before choosing a username: the spec has them choose one first. */
  | "username_required"
  /** An account that cannot be closed yet: a withdrawal or payment in progress, cash to withdraw. */
  | "closure_refused"
  /** An admin adding a passkey before opening the admin gate with their code. */
  | "second_factor_required"
  /** A complaint that does not exist, or answered or closed already (docs/decisions/081-complaints.md). */
  | "complaint_not_found"
  | "complaint_decided"
  /** Where the player lives, identity is verified before this (ADR 080). */
  | "identity_required"
  /** No identity check of this player's with that session id (another player's is not theirs to read). */
  | "identity_check_not_found"
  /** A credit card where the player's jurisdiction bans it for gambling (ADR 080). */
  | "credit_card_refused";

export class DomainError extends Error {
  name = "DomainError";
  constructor(
    readonly code: DomainErrorCode,
    message: string,
  ) {
    super(message);
  }
}
