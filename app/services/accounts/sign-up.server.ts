import * as accounts from "~/models/accounts/account.server";
import { recordAudit } from "~/models/back-office/audit-event.server";
import { db } from "~/models/db.server";
import { endAllSessions } from "./sessions.server";
import { parseIsoDay } from "~/shared/dates";
import { getEnv } from "~/infra/env.server";
import { personEmailKey } from "~/infra/person-key.server";
import { getLogger } from "~/infra/logger.server";
import { passwordProblem } from "~/shared/password-policy";
import { hashPassword, verifyPassword } from "./password.server";
import type { KnownDevice } from "./known-device.server";
import { consume, giveBack, LIMITS, signUpLimit } from "../system/rate-limit.server";
import { checkJurisdiction } from "~/shared/jurisdictions";
import { setDepositLimit, type LimitPeriod } from "../play-safety/responsible-play.server";
import { grantDemoWelcome } from "../rewards/rewards.server";
import { sendVerification } from "./email-tokens.server";
import { USERNAME_TAKEN, usernameKey, validateUsername } from "~/shared/username";

/** A problem with what the player typed, for one form field (or the whole form). */
export class AccountError extends Error {
  name = "AccountError";
  constructor(
    readonly field: string | null,
    message: string,
    /** The answer's status when not the form's usual one (a refusal rather than a typo). */
    readonly status?: number,
  ) {
    super(message);
  }
}

/** A person's self-exclusion outlives their account: no new account while it runs. */
function excludedPersonError(until: Date) {
  const day = until.toISOString().slice(0, 10);
  return new AccountError(
    null,
    `You excluded yourself from play until ${day} (UTC), and that holds for any account: a new one cannot be opened until then. For support, see GamCare (gamcare.org.uk) or call 1-800-GAMBLER.`,
    403,
  );
}

export const MINIMUM_AGE = 18;

export function isAdult(dateOfBirth: Date, now = new Date()): boolean {
  const eighteenth = Date.UTC(dateOfBirth.getUTCFullYear() + MINIMUM_AGE, dateOfBirth.getUTCMonth(), dateOfBirth.getUTCDate());
  return eighteenth <= now.getTime();
}

/** Where the player lives; refused, naming the field, where the site is not allowed. */
export type Residence = { country: string; region?: string };

function allowedResidence({ country, region }: Residence) {
  const check = checkJurisdiction(getEnv().ALLOWED_COUNTRIES, country, region);
  if (!check.ok) throw new AccountError(check.field, check.message);
  return check;
}

export type SignUp = Residence & {
  email: string;
  password: string;
  dateOfBirth: Date;
  acceptTerms: boolean;
  /** Deposit limits chosen at sign-up, in cents (optional). */
  depositLimits?: Partial<Record<LimitPeriod, number>>;
  /** A demo crowd player (demo mode only): marked demo, and sent no mail. */
  isDemo?: boolean;
};

export async function signUp(input: SignUp, { ip, now = new Date() }: { ip: string; now?: Date }): Promise<string> {
  await consume(signUpLimit(), ip, now);
  const problem = passwordProblem(input.password);
  if (problem) throw new AccountError("password", problem);
  if (input.isDemo && !getEnv().demoMode) throw new Error("demo players exist in demo mode only");
  if (!isAdult(input.dateOfBirth, now)) {
    throw new AccountError("dateOfBirth", "You must be 18 or older to play. This site is for adults only.");
  }
  const residence = allowedResidence(input);
  if (!input.acceptTerms) throw new AccountError("acceptTerms", "Please accept the Terms of Service to continue.");
  const personKey = personEmailKey(input.email);
  const created = await accounts.createAccount(
    {
      email: input.email,
      passwordHash: await hashPassword(input.password),
      dateOfBirth: input.dateOfBirth,
      termsAcceptedAt: now,
      country: residence.country,
      region: residence.region,
      // Nobody reads a demo player's mail: no win messages either.
      ...(input.isDemo ? { isDemo: true, emailNotifications: false } : {}),
    },
    { personKey, now },
  );
  if (created.outcome === "excluded") throw excludedPersonError(created.until);
  if (created.outcome === "taken") throw new AccountError("email", "An account with this email already exists. Please sign in.");
  const { userId } = created;
  await db().$transaction((tx) =>
    recordAudit(tx, { actor: userId, action: "account.sign_up", target: `user:${userId}`, details: { country: residence.country, region: residence.region } }),
  );
  for (const [period, cents] of Object.entries(input.depositLimits ?? {})) {
    if (cents !== undefined) await setDepositLimit(userId, period as LimitPeriod, cents, now);
  }
  if (getEnv().demoMode) await grantDemoWelcome(userId, input.email);
  // Needed before a first withdrawal; the message goes through the outbox. A demo
  // player's address is nobody's (.invalid) and it never withdraws.
  if (!input.isDemo) await sendVerification(userId, { now });
  return userId;
}

/** A hash to check against when the email is unknown, so both cases take the same time. */
let decoyHash: Promise<string> | undefined;

/**
 * Checks an email and password. Every limit is counted before the password is checked
 *: a browser the account signed in from before (its device cookie) is limited
 * per device; any other attempt per client address and per account. So guesses at an
 * account lock it for every browser but its owner's known ones. Each failed check is
 * written to the audit log; the right password does not count against the limit.
 */
export async function signIn(
  input: { email: string; password: string },
  { ip, device, now = new Date() }: { ip: string; device?: KnownDevice; now?: Date },
): Promise<string> {
  const email = input.email.toLowerCase();
  const user = await accounts.findUserForSignIn(email);
  const fromKnownDevice = device !== undefined && user !== null && device.userId === user.id;
  let hit;
  if (fromKnownDevice) {
    hit = await consume(LIMITS.signInPerDevice, device.deviceId, now);
  } else {
    await consume(LIMITS.signInPerIp, ip, now);
    hit = await consume(LIMITS.signInPerAccount, email, now);
  }
  decoyHash ??= hashPassword("decoy password for unknown accounts");
  const valid = await verifyPassword(input.password, user?.passwordHash ?? (await decoyHash));
  if (!user || !user.passwordHash || !valid) {
    await db().$transaction((tx) =>
      recordAudit(tx, {
        actor: user?.id ?? "anonymous",
        action: "account.sign_in_failed",
        target: user ? `user:${user.id}` : undefined,
        details: { knownDevice: fromKnownDevice },
      }),
    );
    getLogger().warn({ event: "sign_in_failed", ip }, "failed sign-in");
    throw new AccountError(null, "Invalid email or password.");
  }
  await giveBack(hit);
  if (user.suspendedAt) throw new AccountError(null, "This account is suspended. Please contact support.");
  return user.id;
}

/** A player may change an existing username once in this long (the first choice is free). */
export const USERNAME_RENAME_EVERY_DAYS = 30;

export async function createUsername(userId: string, raw: string, now = new Date()): Promise<string> {
  await consume(LIMITS.usernamePerPlayer, userId, now);
  const result = validateUsername(raw);
  if (!result.ok) throw new AccountError("username", `${result.problem.title}: ${result.problem.description}`);
  const set = await accounts.setUsername(userId, {
    username: result.username,
    key: usernameKey(result.username),
    renameEveryMs: USERNAME_RENAME_EVERY_DAYS * 24 * 60 * 60 * 1000,
    now,
  });
  if (set.outcome === "taken") throw new AccountError("username", USERNAME_TAKEN);
  if (set.outcome === "too_soon") {
    const day = set.nextRename.toISOString().slice(0, 10);
    throw new AccountError("username", `You can change your username once every ${USERNAME_RENAME_EVERY_DAYS} days. You can change it again on ${day} (UTC).`);
  }
  return result.username;
}

export async function completeOnboarding(userId: string, input: Residence & { dateOfBirth: Date; acceptTerms: boolean }, now = new Date()): Promise<void> {
  if (!isAdult(input.dateOfBirth, now)) {
    throw new AccountError("dateOfBirth", "You must be 18 or older to play. This site is for adults only.");
  }
  const residence = allowedResidence(input);
  if (!input.acceptTerms) throw new AccountError("acceptTerms", "Please accept the Terms of Service to continue.");
  await accounts.completeProfile(userId, { dateOfBirth: input.dateOfBirth, termsAcceptedAt: now, country: residence.country, region: residence.region });
}

/**
 * The user for an OpenID Connect sign-in: the linked account, else the account with
 * the provider's verified email (linked now), else a new account that still has to give
 * its date of birth and accept the Terms unless the provider vouched for them.
 */
export async function userForOidcSignIn(claims: {
  issuer: string;
  subject: string;
  email?: string;
  emailVerified?: boolean;
  birthdate?: string;
  givenName?: string;
}): Promise<string> {
  const linked = await accounts.findIdentity(claims.issuer, claims.subject);
  if (linked) return linked.userId;
  if (!claims.email) throw new AccountError(null, "Your identity provider did not share an email address.");
  const existing = await accounts.findUserIdByEmail(claims.email);
  if (existing) {
    if (!claims.emailVerified) {
      throw new AccountError(null, "An account with this email exists. Sign in with your password to link it.");
    }
    await accounts.linkIdentity(existing.id, claims.issuer, claims.subject);
    return existing.id;
  }
  const vouchedBirthdate = (claims.birthdate && parseIsoDay(claims.birthdate)) || undefined;
  const created = await accounts.createAccount(
    {
      email: claims.email,
      firstName: claims.givenName?.slice(0, 50),
      dateOfBirth: vouchedBirthdate && isAdult(vouchedBirthdate) ? vouchedBirthdate : undefined,
      // The provider vouched for the address: no message of ours needed.
      emailVerifiedAt: claims.emailVerified ? new Date() : undefined,
    },
    { personKey: personEmailKey(claims.email), now: new Date() },
  );
  if (created.outcome === "excluded") throw excludedPersonError(created.until);
  const userId = created.outcome === "created" ? created.userId : undefined;
  const id = userId ?? (await accounts.findUserIdByEmail(claims.email))!.id;
  await accounts.linkIdentity(id, claims.issuer, claims.subject);
  if (userId && getEnv().demoMode) await grantDemoWelcome(userId, claims.email);
  if (userId && !claims.emailVerified) await sendVerification(userId);
  return id;
}

/** Suspends (or lifts the suspension of) a player; suspending ends every session at once. */
export async function setSuspension(actorId: string, userId: string, suspended: boolean, now = new Date()) {
  await accounts.setSuspended(userId, suspended ? now : null);
  if (suspended) await endAllSessions(userId);
  await db().$transaction((tx) => recordAudit(tx, { actor: actorId, action: suspended ? "user.suspend" : "user.unsuspend", target: `user:${userId}` }));
}
