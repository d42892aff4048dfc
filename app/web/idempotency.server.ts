import { createHash } from "node:crypto";
import * as keys from "~/models/system/idempotency-key.server";
import { jsonError } from "./http.server";

/**
 * Idempotency-Key on money-moving POSTs (docs/decisions/010-idempotency-keys.md). With the
 * header, the action runs at most once per player and key: the first response is stored
 * and every repeat gets it back, changing nothing. Without the header nothing changes.
 */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1000;
export const IDEMPOTENCY_KEY_HEADER = "Idempotency-Key";

const KEY_FORMAT = /^[\x21-\x7e]{1,255}$/;
/** The response headers a replay needs; anything else (request ids, security headers) is the server's own. */
const KEPT_HEADERS = ["content-type", "location", "retry-after"];

/** `player` is the player's id, or a function giving it (asked only when the request has a key). */
export async function idempotent(
  request: Request,
  player: string | (() => Promise<string>),
  run: () => Promise<Response>,
  now = new Date(),
): Promise<Response> {
  const key = request.headers.get(IDEMPOTENCY_KEY_HEADER);
  if (key === null) return run();
  const userId = typeof player === "string" ? player : await player();
  if (!KEY_FORMAT.test(key)) return jsonError(400, "Idempotency-Key must be 1 to 255 visible ASCII characters");
  const hash = await requestHash(request);

  if (!(await keys.claimKey(userId, key, hash, now, new Date(now.getTime() + IDEMPOTENCY_KEY_TTL_MS)))) {
    const existing = await keys.findKey(userId, key, now);
    if (existing && existing.requestHash !== hash) {
      return jsonError(422, "This Idempotency-Key was already used for a different request. Send a new key with a new request.");
    }
    if (existing?.response) return replay(existing.response, true);
    return jsonError(409, "A request with this Idempotency-Key is still being processed. Retry it shortly to get its response.", {
      headers: { "Retry-After": "1" },
    });
  }

  let response: Response;
  let thrown = false;
  try {
    response = await run();
  } catch (error) {
    if (!(error instanceof Response)) {
      // A bug (a 500): whether anything happened is unknown to the client, so the key is not spent.
      await keys.releaseKey(userId, key);
      throw error;
    }
    response = error;
    thrown = true;
  }
  // Not an outcome of the request but of the moment: a retry with the same key should run.
  if (response.status === 429 || response.status >= 500) {
    await keys.releaseKey(userId, key);
    if (thrown) throw response;
    return response;
  }
  const stored = await storable(response);
  await keys.completeKey(userId, key, stored, new Date());
  const first = replay(stored, false);
  if (thrown) throw first;
  return first;
}

/** SHA-256 over the method, the path with its query, and the body's bytes. */
async function requestHash(request: Request): Promise<string> {
  const url = new URL(request.url);
  const hash = createHash("sha256").update(`${request.method}\n${url.pathname}${url.search}\n`);
  if (request.body) hash.update(new Uint8Array(await request.clone().arrayBuffer()));
  return hash.digest("hex");
}

async function storable(response: Response): Promise<keys.StoredResponse> {
  const headers: Record<string, string[]> = {};
  for (const name of KEPT_HEADERS) {
    const value = response.headers.get(name);
    if (value !== null) headers[name] = [value];
  }
  // A plain form post's answer is a redirect whose message travels in a flash-toast cookie.
  const cookies = response.headers.getSetCookie().filter((cookie) => cookie.startsWith("__toast="));
  if (cookies.length) headers["set-cookie"] = cookies;
  return { status: response.status, headers, body: await response.text() };
}

function replay(stored: keys.StoredResponse, replayed: boolean): Response {
  const headers = new Headers();
  for (const [name, values] of Object.entries(stored.headers)) for (const value of values) headers.append(name, value);
  if (replayed) headers.set("Idempotent-Replayed", "true");
  return new Response(stored.status === 204 || stored.status === 304 ? null : stored.body, { status: stored.status, headers });
}
