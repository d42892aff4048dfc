import { errorResponse } from "./http.server";
import { redirectWithToast, type NewToast } from "./toast.server";
import { safeRedirectPath } from "~/shared/safe-redirect";

/**
 * One action, two audiences: plain form posts (JavaScript off) get a redirect back with a
 * flash toast; JavaScript fetchers and API clients get JSON. A browser's form post asks
 * for HTML; a fetcher sends a form or JSON and asks for JSON. A bodiless POST that asks
 * for neither (the spec's client: entries and the spin send none) gets JSON and a real
 * status, never a redirect that would make a refusal look like a success.
 */
export function wantsJson(request: Request): boolean {
  const accept = request.headers.get("Accept") ?? "";
  const type = request.headers.get("Content-Type") ?? "";
  if (type.includes("application/json")) return true;
  if (accept.includes("text/html")) return false;
  if (accept.includes("application/json")) return true;
  return !(type.includes("application/x-www-form-urlencoded") || type.includes("multipart/form-data"));
}

/** The same-site page the request came from (its path and query), or the fallback for a missing or malformed Referer. */
function refererPath(request: Request, fallback: string): string {
  const referer = request.headers.get("Referer");
  if (!referer || !URL.canParse(referer)) return fallback;
  const url = new URL(referer);
  return safeRedirectPath(url.pathname + url.search, fallback);
}

export async function respond(
  request: Request,
  run: () => Promise<{ json: unknown; toast: NewToast; status?: number }>,
  { failureTitle, back = "/" }: { failureTitle: string; back?: string },
): Promise<Response> {
  const json = wantsJson(request);
  const backTo = refererPath(request, back);
  try {
    const result = await run();
    return json ? Response.json(result.json, { status: result.status ?? 200 }) : redirectWithToast(backTo, result.toast);
  } catch (error) {
    const response = errorResponse(error);
    if (!response) throw error;
    if (json || response.status === 401) return response;
    const { message } = (await response.clone().json().catch(() => ({ message: failureTitle }))) as { message: string };
    return redirectWithToast(backTo, { type: "error", title: failureTitle, description: message });
  }
}
