import { parseWithZod } from "@conform-to/zod/v4";
import type { z } from "zod";
import { AccountError } from "~/services/accounts/sign-up.server";
import { DomainError, type DomainErrorCode } from "~/shared/domain-error";
import { getLogger } from "~/infra/logger.server";
import { isDatabaseUnavailable } from "~/infra/outage.server";
import { PaymentProviderUnavailable } from "~/infra/payment-providers/provider";
import { IdentityProviderUnavailable } from "~/infra/identity-providers/provider";
import { RateLimited } from "~/services/system/rate-limit.server";
import { UUID } from "~/shared/uuid";

/**
 * Where domain errors become HTTP: one table of statuses, JSON `{ message }` bodies for
 * the API. Pages turn the same errors into flash toasts.
 */
const STATUS: Record<DomainErrorCode, number> = {
  raffle_not_found: 404,
  user_not_found: 404,
  raffle_not_open: 409,
  raffle_closed: 409,
  spin_not_ready: 409,
  already_claimed: 409,
  insufficient_coins: 422,
  over_ticket_cap: 422,
  vip_only: 403,
  not_vip: 403,
  payment_not_found: 404,
  unknown_product: 400,
  invalid_input: 400,
  withdrawal_invalid: 422,
  withdrawal_not_found: 404,
  withdrawal_decided: 409,
  verification_required: 409,
  second_approver_required: 409,
  payee_blocked: 409,
  own_account: 403,
  excluded: 403,
  staff: 403,
  jurisdiction: 403,
  vip_downgrade: 409,
  deposit_limit: 422,
  signed_out: 401,
  not_onboarded: 403,
  username_required: 403,
  closure_refused: 409,
  second_factor_required: 403,
  complaint_not_found: 404,
  complaint_decided: 409,
  identity_required: 403,
  identity_check_not_found: 404,
  credit_card_refused: 402,
};

export function jsonError(status: number, message: string, init?: ResponseInit): Response {
  return Response.json({ message }, { ...init, status });
}

/** An expected failure as the site answers it: status, the player's words, headers. */
export type Failure = { status: number; message: string; headers?: Record<string, string> };

/**
 * The one place an error becomes an answer: what an expected failure says and with which
 * status, or undefined for a bug (which must surface as a 500). The API answers it as JSON,
 * pages as a toast or a form error, both with its status.
 */
export function expectedFailure(error: unknown): Failure | undefined {
  if (error instanceof DomainError) return { status: STATUS[error.code], message: error.message };
  if (error instanceof RateLimited) return { status: 429, message: error.message, headers: { "Retry-After": String(error.retryAfterSeconds) } };
  if (error instanceof AccountError) return { status: 400, message: error.message };
  if (error instanceof PaymentProviderUnavailable) {
    getLogger().warn({ err: error.cause }, "the payment provider is unavailable");
    return { status: 503, message: error.message, headers: { "Retry-After": "60" } };
  }
  if (error instanceof IdentityProviderUnavailable) {
    getLogger().warn({ err: error.cause }, "the identity provider is unavailable");
    return { status: 503, message: error.message, headers: { "Retry-After": "60" } };
  }
  return undefined;
}

/** The JSON answer for an expected failure (or a thrown Response as it is), or undefined for a bug. */
export function errorResponse(error: unknown): Response | undefined {
  if (error instanceof Response) return error;
  const failure = expectedFailure(error);
  return failure && jsonError(failure.status, failure.message, { headers: failure.headers });
}

/** Runs an API handler, answering expected failures with their status and JSON message. */
export async function apiResponse(run: () => Promise<Response>): Promise<Response> {
  try {
    return await run();
  } catch (error) {
    const response = errorResponse(error);
    if (response) return response;
    // An outage is answered 503 and logged once, by withOutageAnswers (server/remix.ts).
    if (!isDatabaseUnavailable(error)) getLogger().error({ err: error }, "API handler failed");
    throw error;
  }
}

/** Parses a JSON body against a schema; 400 with a clear message when it does not fit. */
export async function readJson<T extends z.ZodType>(request: Request, schema: T): Promise<z.infer<T>> {
  const type = request.headers.get("Content-Type") ?? "";
  let body: unknown = {};
  if (type.includes("application/json")) {
    const text = await request.text();
    try {
      body = text ? JSON.parse(text) : {};
    } catch {
      throw jsonError(400, "The request body is not valid JSON");
    }
    refuseUnstorable(body);
  } else if (type.includes("form")) {
    body = Object.fromEntries(await readForm(request));
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw jsonError(400, `${issue.path.join(".") || "body"}: ${issue.message}`);
  }
  return parsed.data;
}

/**
 * Parses a posted form with conform's `parseWithZod` (blank fields read as not given,
 * numbers and checkboxes coerced): the value, or a 400 naming the first field that does
 * not fit, as `readJson` words it. For actions that answer with a toast; a page that shows
 * errors beside its fields parses itself and returns `submission.reply()`.
 */
export async function readSubmission<T extends z.ZodType>(request: Request, schema: T): Promise<z.output<T>> {
  const submission = parseWithZod(await readForm(request), { schema });
  if (submission.status === "success") return submission.value as z.output<T>;
  const [name, messages] = Object.entries(submission.error ?? {}).find(([, m]) => m?.length) ?? ["", ["is not valid"]];
  throw jsonError(400, `${name || "body"}: ${messages![0]}`);
}

const FORM_TYPE = /^\s*(application\/x-www-form-urlencoded|multipart\/form-data)\s*(;|$)/i;

/**
 * The posted form: 415 when the body is not a form (JSON, XML, text), 400 when it claims
 * to be one but cannot be read (a multipart body without its boundary, a cut-off upload).
 */
export async function readForm(request: Request): Promise<FormData> {
  if (!FORM_TYPE.test(request.headers.get("Content-Type") ?? "")) {
    throw jsonError(415, "Send this form as application/x-www-form-urlencoded or multipart/form-data");
  }
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    throw jsonError(400, "The form could not be read");
  }
  refuseUnstorable([...form.entries()].flat().filter((v) => typeof v === "string"));
  return form;
}

/** The query string's parameters, refused (400) when one carries text PostgreSQL cannot store. */
export function queryParams(request: Request): URLSearchParams {
  const params = new URL(request.url).searchParams;
  refuseUnstorable([...params.entries()].flat());
  return params;
}

/** No body of ours nests deeper than a few levels; deeper ones are refused before anything walks them. */
export const MAX_BODY_DEPTH = 32;

/**
 * PostgreSQL cannot store NUL (U+0000) or half of a surrogate pair, and no field of ours
 * means one: text with either is refused at the door with a 400 rather than failing in the
 * database as a 500 (refuseBadText). The walk uses a stack of its own, not recursion, and
 * refuses values nested deeper than MAX_BODY_DEPTH: 5,000 nested `[` (10 KB) would
 * otherwise overflow the call stack.
 */
function refuseUnstorable(value: unknown): void {
  const pending: [unknown, number][] = [[value, 0]];
  while (pending.length > 0) {
    const [item, depth] = pending.pop()!;
    if (typeof item === "string") {
      refuseBadText(item);
      continue;
    }
    if (!item || typeof item !== "object") continue;
    if (depth >= MAX_BODY_DEPTH) throw jsonError(400, `The request body is nested too deeply (at most ${MAX_BODY_DEPTH} levels)`);
    for (const [key, child] of Object.entries(item)) {
      refuseBadText(key);
      pending.push([child, depth + 1]);
    }
  }
}

/**
 * NUL, which PostgreSQL's text refuses, and half of a surrogate pair (a JSON body's
 * "\ud800"), which no UTF-8 can carry and PostgreSQL's jsonb refuses: a 400 before either
 * reaches a query.
 */
function refuseBadText(text: string): void {
  if (text.includes("\u0000")) throw jsonError(400, "Text must not contain NUL characters");
  if (/\p{Cs}/u.test(text)) throw jsonError(400, "Text must be valid Unicode: half of a surrogate pair is not");
}

/** A UUID path parameter, or a 400. */
export function uuidParam(value: string | undefined, name = "id"): string {
  if (!value || !UUID.test(value)) {
    throw jsonError(400, `Malformed ${name}`);
  }
  return value.toLowerCase();
}
