import { errorResponse } from "./http.server";
import { redirectWithToast, type NewToast } from "./toast.server";
import { safeRedirectPath } from "./safe-redirect";

/**
 * One action, two audiences: JavaScript fetchers and API clients get JSON, plain form
 * posts (JavaScript off) get a redirect back with a flash toast.
 */
export function wantsJson(request: Request): boolean {
  const accept = request.headers.get("Accept") ?? "";
  const type = request.headers.get("Content-Type") ?? "";
  return type.includes("application/json") || (accept.includes("application/json") && !accept.includes("text/html"));
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
