import { redirect } from "@remix-run/node";
import { expectedFailure } from "./http.server";
import { DomainError } from "~/shared/domain-error";
import { safeRedirectPath } from "~/shared/safe-redirect";
import { redirectWithToast, type NewToast } from "./toast.server";

/** The spec's toast when an action finds the player signed out (section 8); sign-in shows it. */
export const LOGGED_OUT: NewToast = { type: "error", title: "Unauthorized", description: "You are logged out. Logging in again..." };

/**
 * A fetcher follows the redirect as a navigation: replacing the history entry keeps Back
 * where it was (a plain form post ignores the header). See ADR 040.
 */
const REPLACE = { headers: { "X-Remix-Replace": "true" } };

/** The same-site page the request came from (its path and query), or the fallback for a missing or malformed Referer. */
export function pageOf(request: Request, fallback: string): string {
  const referer = request.headers.get("Referer");
  if (!referer || !URL.canParse(referer)) return fallback;
  const url = new URL(referer);
  return safeRedirectPath(url.pathname + url.search, fallback);
}

/** Back to `page` with the toast, if any; the history entry is replaced when a fetcher follows it. */
export async function backWithToast(page: string, toast: NewToast | null): Promise<Response> {
  return toast ? redirectWithToast(page, toast, REPLACE) : redirect(page, REPLACE);
}

/**
 * An in-page action: the one answer for a `<fetcher.Form>` with JavaScript and
 * the same plain `<form>` without it. Success and refusal alike go back to the page the
 * form was on with a flash toast (the spec's title and message; none for an action that
 * only changes what the page shows); a signed-out player goes
 * to sign-in with the spec's "logged out" toast. The JSON API (`/api/*`) answers with a
 * status and `{ message }` instead, and never redirects. `done`, when given, is where
 * success goes instead of the page.
 */
export async function pageAction(
  request: Request,
  run: () => Promise<NewToast | null>,
  { failureTitle, back = "/", done }: { failureTitle: string; back?: string; done?: string },
): Promise<Response> {
  const page = pageOf(request, back);
  try {
    return await backWithToast(done ?? page, await run());
  } catch (error) {
    if (!(error instanceof Response)) {
      // No username yet (the dialog cannot stop a form without JavaScript): choose one, then back.
      if (error instanceof DomainError && error.code === "username_required") return redirect(`/account/username?returnTo=${encodeURIComponent(page)}`);
      const failure = expectedFailure(error);
      if (!failure) throw error;
      // Signed out meanwhile (the entry's own check found it): sign in, then back to the page.
      if (failure.status === 401) return redirectWithToast(`/api/login?returnTo=${encodeURIComponent(page)}`, LOGGED_OUT);
      return backWithToast(page, { type: "error", title: failureTitle, description: failure.message });
    }
    // A guard's or a validator's answer, thrown as a Response.
    const response = error;
    if (response.status === 401 || response.headers.get("Location")?.startsWith("/api/login")) {
      return redirectWithToast(`/api/login?returnTo=${encodeURIComponent(page)}`, LOGGED_OUT);
    }
    // Sign-up not finished: onboarding, then back to the page (not to this action's path).
    if (response.headers.get("Location")?.startsWith("/onboarding")) return redirect(`/onboarding?returnTo=${encodeURIComponent(page)}`);
    if (response.status >= 300 && response.status < 400) return response;
    const { message } = (await response.json().catch(() => ({}))) as { message?: string };
    return backWithToast(page, { type: "error", title: failureTitle, description: message || failureTitle });
  }
}
