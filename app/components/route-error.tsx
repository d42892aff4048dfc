import { isRouteErrorResponse, useRouteError } from "@remix-run/react";
import type { ReactNode } from "react";

/** Where a page's error sends the player back to: a plain link, so it works without JavaScript. */
export type WayBack = { to: string; label: string };

const HOME: WayBack = { to: "/", label: "Back to the home page" };

/** What the player reads for one status (404, 400...), in the page's own terms. */
export type StatusMessage = { title: string; message: ReactNode; back?: WayBack };

/**
 * The frame every error screen shares: a heading, what happened, and the way back (the
 * page's own link first, then the home page). Never a stack trace or a server message: the
 * request id in the logs is enough to find the cause.
 */
export function ErrorFrame({ status, title, children, back = HOME }: { status?: number; title: string; children: ReactNode; back?: WayBack }) {
  return (
    <main data-testid="route-error" className="mx-auto flex min-h-screen max-w-lg flex-col items-center justify-center gap-4 p-6 text-center">
      {status === 404 ? <p className="font-display text-6xl font-bold text-accent-ink">404</p> : null}
      <h1 className="text-3xl font-bold">{title}</h1>
      <div className="flex flex-col gap-2">{children}</div>
      <nav aria-label="Where to go next" className="flex flex-wrap justify-center gap-3">
        <a className="rounded-md bg-accent px-4 py-2 font-semibold text-on-accent" href={back.to}>
          {back.label}
        </a>
        {back.to === HOME.to ? null : (
          <a className="rounded-md px-4 py-2 font-semibold underline" href={HOME.to}>
            {HOME.label}
          </a>
        )}
      </nav>
    </main>
  );
}

/** The status of what a loader or action threw: a thrown Response's, else 500 (a bug). */
export function useErrorStatus(): number {
  const error = useRouteError();
  return isRouteErrorResponse(error) ? error.status : 500;
}

/**
 * A page's ErrorBoundary: `title` says what could not be done in the page's terms ("Your
 * history could not be shown"), `statuses` gives the page's own message for a status it
 * throws on purpose (a 404 for an unknown draw), and `back` the way back from that page.
 * Anything else is our fault (5xx): the player is told their coins are safe.
 */
export function PageError({ title, back, statuses = {} }: { title: string; back?: WayBack; statuses?: Partial<Record<number, StatusMessage>> }) {
  const status = useErrorStatus();
  const own = statuses[status];
  if (own) {
    return (
      <ErrorFrame status={status} title={own.title} back={own.back ?? back}>
        {typeof own.message === "string" ? <p>{own.message}</p> : own.message}
      </ErrorFrame>
    );
  }
  return (
    <ErrorFrame status={status} title={title} back={back}>
      <p>{generalMessage(status)}</p>
    </ErrorFrame>
  );
}

/** What any page says for a status it has no words of its own for. */
export function generalMessage(status: number): string {
  if (status === 503) return "The site is briefly unavailable. Nothing was changed and your coins are safe; please try again in a minute.";
  return status >= 500
    ? "We hit a problem on our side. Your coins are safe; please try again in a moment."
    : status === 404
      ? "We couldn’t find what you were looking for. It may have moved, or the link may be mistyped."
      : "That request could not be completed.";
}

/**
 * A nested route's ErrorBoundary (a back-office tab): the page around it, its layout's
 * heading and links, still stands, so only the part that failed says so, as a section
 * under the page's heading rather than a page of its own. `back` is a plain link: the
 * part without what made it fail (its filters cleared, say).
 */
export function SectionError({ title, back, statuses = {} }: { title: string; back?: WayBack; statuses?: Partial<Record<number, StatusMessage>> }) {
  const status = useErrorStatus();
  const own = statuses[status];
  const way = own?.back ?? back;
  const message = own ? own.message : generalMessage(status);
  return (
    <section
      role="alert"
      aria-label={own?.title ?? title}
      data-testid="section-error"
      className="flex flex-col gap-2 rounded-lg border border-red-300 p-4 dark:border-red-800"
    >
      <h2 className="text-xl font-bold">{own?.title ?? title}</h2>
      {typeof message === "string" ? <p>{message}</p> : message}
      {way ? (
        <a className="self-start font-semibold underline" href={way.to}>
          {way.label}
        </a>
      ) : null}
    </section>
  );
}
