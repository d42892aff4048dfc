/**
 * Every message the site sends, in one place: a subject, a plain-text body and a simple
 * HTML body made from the same paragraphs (docs/decisions/032-email-outbox-and-recovery.md).
 * Templates read only the outbox row's `data`, written when the event happened, and the
 * site's base URL at sending time.
 */
export const MAIL_KINDS = [
  "verify_email",
  "password_reset",
  "password_reset_unknown",
  "password_changed",
  "confirm_email_change",
  "email_changed",
  "win",
  "withdrawal_requested",
  "withdrawal_completed",
  "withdrawal_failed",
  "receipt",
  "deposit_limit_changed",
  "exclusion_confirmed",
  "entry_receipt",
  "complaint_answered",
  "coins_taken_back",
  "coins_given_back",
] as const;
export type MailKind = (typeof MAIL_KINDS)[number];

/**
 * The optional messages, which the player's "Email notifications" setting turns off:
 * news of their own wins, the echo of a withdrawal they just asked for, and card
 * receipts (PRODUCT.md: "email notifications (wins, withdrawals, receipts)"). Security
 * messages, money moved (a withdrawal's outcome, coins a refund or dispute took or gave back)
 * and responsible-play confirmations always go.
 */
export const OPTIONAL_KINDS: ReadonlySet<MailKind> = new Set(["win", "withdrawal_requested", "receipt"]);

export type MailData = Record<string, string | number | boolean | null | undefined>;
export type RenderedMail = { subject: string; text: string; html: string };

/** A paragraph, or a link with its label (shown as the bare URL in plain text). */
type Part = string | { link: string; label: string };

const escapeHtml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");

function compose(subject: string, parts: Part[]): RenderedMail {
  const all: Part[] = [...parts, "— Raffle Rush"];
  const text = all.map((p) => (typeof p === "string" ? p : `${p.label}: ${p.link}`)).join("\n\n") + "\n";
  const body = all
    .map((p) => (typeof p === "string" ? `<p>${escapeHtml(p)}</p>` : `<p><a href="${escapeHtml(p.link)}">${escapeHtml(p.label)}</a></p>`))
    .join("\n");
  const html = `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head><body style="font-family:sans-serif;line-height:1.5">\n${body}\n</body></html>\n`;
  return { subject, text, html };
}

const str = (data: MailData, key: string) => String(data[key] ?? "");

/** What a refund or dispute took (coins_taken_back) or a won dispute gave back (coins_given_back). */
function coinsMoved(data: MailData, verb: "took back" | "gave back"): string[] {
  if (data.vip) return data.vipDays ? [`We ${verb} the ${str(data, "vipDays")} days of VIP membership it bought.`] : [];
  if (data.unknown) return ["Our support team gives back by hand the coins the dispute took, and writes to you when it has."];
  const count = (n: number) => n.toLocaleString("en-US");
  const [cash, bonus, missing] = [Number(data.cash ?? 0), Number(data.bonus ?? 0), Number(data.missing ?? 0)];
  const parts = cash + bonus > 0 ? [`We ${verb} ${count(cash + bonus)} coins: ${count(cash)} cash and ${count(bonus)} bonus.`] : [];
  if (missing > 0) parts.push(`${count(missing)} of the coins it bought were already played, so our support team will contact you.`);
  return parts;
}

const SAFE_PLAY =
  "If gambling stops being fun, help is free and confidential: GamCare (www.gamcare.org.uk), BeGambleAware (www.begambleaware.org), 1-800-GAMBLER (NCPG, US).";

export function renderMail(kind: MailKind, data: MailData, baseUrl: string): RenderedMail {
  const url = (path: string) => `${baseUrl.replace(/\/$/, "")}${path}`;
  switch (kind) {
    case "verify_email":
      return compose("Verify your email", [
        "Confirm that this address is yours: open the link below, or type this code on the withdraw page.",
        `Your code: ${str(data, "code")}`,
        { link: url(`/verify-email?token=${encodeURIComponent(str(data, "token"))}`), label: "Verify my email" },
        `The link and the code work for ${str(data, "hours")} hours. If you did not create an account, ignore this message.`,
      ]);
    case "password_reset":
      return compose("Reset your password", [
        "Someone (we hope you) asked to reset the password of your Raffle Rush account.",
        { link: url(`/reset-password/${encodeURIComponent(str(data, "token"))}`), label: "Choose a new password" },
        `The link works once, for ${str(data, "minutes")} minutes. If you did not ask, ignore this message: your password stays as it is.`,
      ]);
    case "password_reset_unknown":
      return compose("Reset your password", [
        "Someone (we hope you) asked to reset a Raffle Rush password for this address, but no account uses it.",
        "If it was you, you may have signed up with another address. If not, ignore this message.",
      ]);
    case "password_changed":
      return compose("Your password was changed", [
        "The password of your Raffle Rush account was just changed, and every signed-in browser was signed out.",
        `If this was not you, reset your password at once and write to ${str(data, "support")}.`,
        { link: url("/forgot-password"), label: "Reset my password" },
      ]);
    case "confirm_email_change":
      return compose("Confirm your new email address", [
        "You asked to use this address for your Raffle Rush account. Open the link below, or type this code on the Change email page.",
        `Your code: ${str(data, "code")}`,
        { link: url(`/account/email?token=${encodeURIComponent(str(data, "token"))}`), label: "Use this address" },
        `The link and the code work for ${str(data, "hours")} hours. Until then your account keeps its old address. If you did not ask, ignore this message.`,
      ]);
    case "email_changed":
      return compose("Your email address was changed", [
        `The email address of your Raffle Rush account is now ${str(data, "newEmail")}. Messages about the account go there from now on.`,
        `If this was not you, write to ${str(data, "support")} at once.`,
      ]);
    case "win":
      return compose(`You won ${str(data, "coins")} coins!`, [
        `Congratulations! You won ${str(data, "coins")} coins in a raffle.`,
        "Anyone can check that the draw was fair: the page below shows the seed, the entries and how the winner follows from them.",
        { link: url(`/fair/${encodeURIComponent(str(data, "raffleId"))}`), label: "Check the fair draw" },
        SAFE_PLAY,
      ]);
    case "withdrawal_requested":
      return compose("Withdrawal requested", [
        `We received your withdrawal of $${str(data, "amount")} to ${str(data, "destination")}. It is processed within 24 hours, with no fees.`,
        { link: url("/withdraw"), label: "See your withdrawals" },
      ]);
    case "withdrawal_completed":
      return compose("Withdrawal completed", [
        `Your withdrawal of $${str(data, "amount")} to ${str(data, "destination")} was paid.`,
        { link: url("/withdraw"), label: "See your withdrawals" },
      ]);
    case "withdrawal_failed":
      return compose("Withdrawal failed", [
        `Your withdrawal of $${str(data, "amount")} could not be paid: ${str(data, "reason")}.`,
        `$${str(data, "returned")} is back in your withdrawable balance.`,
        { link: url("/withdraw"), label: "See your withdrawals" },
      ]);
    case "receipt":
      return compose(`Receipt: $${str(data, "amount")}`, [
        `Thank you for your payment of $${str(data, "amount")} by card for ${str(data, "description")}.`,
        `Payment reference: ${str(data, "reference")}. Date: ${str(data, "date")}.`,
        { link: url("/history"), label: "See your history" },
      ]);
    case "deposit_limit_changed":
      return compose("Your deposit limit changed", [
        `Your ${str(data, "period")} deposit limit: ${str(data, "limit")}, from ${str(data, "from")}.`,
        "A lower limit applies at once; a higher one, or removing one, only after a cooling-off period.",
        { link: url("/responsible-play"), label: "Your limits" },
        SAFE_PLAY,
      ]);
    case "entry_receipt":
      // Written by enter_raffles only for players who turned "Email receipts" on (ADR 079).
      return compose(`Receipt: ticket #${str(data, "position")} in a ${str(data, "tier")} raffle`, [
        `You bought ticket #${str(data, "position")} in the ${str(data, "tier")} ${data.raffleKind === "quick" ? "quick " : ""}raffle ${str(data, "raffleId")} on ${str(data, "enteredAt")}.`,
        `You paid ${Number(data.cash ?? 0) + Number(data.bonus ?? 0)} coins: ${str(data, "cash")} cash and ${str(data, "bonus")} bonus.`,
        `The raffle's commitment: seed hash ${str(data, "seedHash")}; ${data.beaconRound ? `drand beacon round ${str(data, "beaconRound")}` : "not joined to a beacon"}.`,
        "Your receipt proves your ticket: after the draw it adds the ticket's inclusion proof and the result, and you can download it to check offline.",
        { link: url(`/receipts/${encodeURIComponent(str(data, "receiptId"))}`), label: "Your receipt" },
        SAFE_PLAY,
      ]);
    case "exclusion_confirmed":
      return compose(data.kind === "self_exclusion" ? "Your self-exclusion is confirmed" : "Your break is confirmed", [
        `${data.kind === "self_exclusion" ? "You are self-excluded" : "You are taking a break"} until ${str(data, "until")}. Until then you cannot play or buy coins; you can still sign in, see your balance and withdraw.`,
        SAFE_PLAY,
      ]);
    case "coins_taken_back": {
      const dispute = data.reason === "dispute";
      const payment = `your card payment of $${str(data, "paid")} (reference ${str(data, "reference")})`;
      return compose(dispute ? "Your card payment is disputed" : "Your card payment was refunded", [
        dispute
          ? `Your bank told us that you disputed $${str(data, "amount")} of ${payment}, and has taken that money back from us.`
          : `$${str(data, "amount")} of ${payment} was refunded to your card.`,
        ...coinsMoved(data, "took back"),
        ...(dispute
          ? [
              `Withdrawals are on hold until our support team has looked at your account. If the dispute is a mistake, tell your bank and write to ${str(data, "support")}.`,
            ]
          : []),
        { link: url("/history"), label: "See your history" },
      ]);
    }
    case "coins_given_back":
      return compose("Your card payment stands", [
        `The dispute of $${str(data, "amount")} of your card payment of $${str(data, "paid")} (reference ${str(data, "reference")}) was closed in our favour: the payment stands.`,
        ...coinsMoved(data, "gave back"),
        `Withdrawals stay on hold until our support team has looked at your account; write to ${str(data, "support")} with any question.`,
        { link: url("/history"), label: "See your history" },
      ]);
    case "complaint_answered":
      return compose("Your complaint has an answer", [
        `We have answered your complaint of ${str(data, "filed")} (${str(data, "subject")}):`,
        str(data, "answer"),
        { link: url("/complaints"), label: "See your complaints" },
      ]);
  }
}
