/**
 * Cross-site request forgery guard for every state-changing request: the browser's
 * Origin (or, failing that, Referer) must be this site. Together with SameSite=Lax
 * cookies this refuses forged cross-site posts. Webhooks from payment providers are
 * server-to-server and carry their own signatures instead.
 */
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
export const CSRF_EXEMPT_PATHS = new Set(["/api/stripe/webhook"]);

export function isCrossSite(request: { method: string; path: string; host?: string; origin?: string; referer?: string }): boolean {
  if (SAFE_METHODS.has(request.method.toUpperCase()) || CSRF_EXEMPT_PATHS.has(request.path)) return false;
  const source = request.origin ?? request.referer;
  if (!source || !request.host) return true;
  try {
    return new URL(source).host !== request.host;
  } catch {
    return true; // "null" or garbage
  }
}
