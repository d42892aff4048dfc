import { data, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Links, Meta, Outlet, Scripts, ScrollRestoration } from "@remix-run/react";
import { useEffect, type ReactNode } from "react";
import { useNonce } from "./components/nonce";
import { DemoBanner } from "./components/demo-banner";
import { EntryAnswers, keptAfterCardEntry } from "./components/entry-answers";
import { useInPageLinks } from "./components/in-page-links";
import { useScrollKeptThroughReloads } from "./components/scroll-kept";
import { NotFound } from "./components/not-found";
import { ErrorFrame, generalMessage, useErrorStatus } from "./components/route-error";
import { Toaster, type ToastMessage } from "./components/toaster";
import { useOptionalRootData, useRootData } from "./components/use-root-data";
import { needsOnboarding } from "~/services/accounts/sessions.server";
import { getSession } from "~/web/auth.server";
import { getEnv } from "./infra/env.server";
import { takeOutcomeNotice } from "~/web/outcome-toasts.server";
import { takePayoutNotice } from "~/web/payout-toasts.server";
import { playState } from "~/services/play-safety/reality-check.server";
import { getTheme } from "~/web/theme.server";
import { readToast } from "~/web/toast.server";
import { userRecord } from "~/services/accounts/user-record.server";
import stylesheet from "./tailwind.css?url";
import textFont from "@fontsource-variable/figtree/files/figtree-latin-wght-normal.woff2?url";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: stylesheet },
  // The text face is on every page: fetched with the stylesheet, not after it.
  { rel: "preload", href: textFont, as: "font", type: "font/woff2", crossOrigin: "anonymous" },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export async function loader({ request }: LoaderFunctionArgs) {
  const [{ toast, headers }, theme, session] = await Promise.all([readToast(request), getTheme(request), getSession(request)]);
  const [user, play, payoutNotice, outcomeNotice] = session
    ? await Promise.all([
        userRecord(session.user),
        needsOnboarding(session.user) ? null : playState(session),
        // News of a withdrawal waits while another toast is shown: one toast at a time. Its id
        // names the state, so that the next state's toast replaces the last one on an open page.
        session.user.payoutNoticeId && !toast ? takePayoutNotice(session.user.id, session.user.payoutNoticeId) : null,
        // A win or a refund waits for both; the session says whether any is waiting.
        session.user.hasOutcomeNews && !toast && !session.user.payoutNoticeId ? takeOutcomeNotice(session.user.id) : null,
      ])
    : [null, null, null, null];
  const flash: ToastMessage | null =
    toast ?? (payoutNotice && { id: `${session!.user.payoutNoticeId}:${payoutNotice.title}`, type: "info", ...payoutNotice }) ?? outcomeNotice;
  // Read in the browser through app/components/use-root-data.ts, typed from this loader.
  return data(
    {
      theme,
      toast: flash,
      /** The signed-in player (the spec's user record), or null. */
      user,
      /** The signed-in player's stretch of play and reality check. */
      play,
      supportEmail: getEnv().SUPPORT_EMAIL,
      /** Demo payments, no real money: every page says so (DemoBanner). */
      demoMode: getEnv().demoMode,
      /** The demo crowd plays: the banner says some players are simulated. */
      demoCrowd: getEnv().DEMO_CROWD > 0,
      serverNow: Date.now(),
    },
    { headers: headers ?? undefined },
  );
}

export function Layout({ children }: { children: ReactNode }) {
  // Undefined when the root loader itself failed (the root ErrorBoundary renders then).
  const root = useOptionalRootData();
  const nonce = useNonce();
  useInPageLinks();
  useScrollKeptThroughReloads();
  return (
    <html lang="en" className={root?.theme === "dark" ? "dark" : undefined}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body className="min-h-screen bg-canvas text-ink antialiased">
        {root?.demoMode ? <DemoBanner crowd={root.demoCrowd} /> : null}
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  const root = useRootData();
  useEffect(() => {
    // Lets tests (and styles) tell a hydrated page from server HTML.
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return (
    <Toaster flash={root.toast}>
      <EntryAnswers root={root}>
        <Outlet />
      </EntryAnswers>
    </Toaster>
  );
}

/** A card's entry answers with what changed; the root's data is not loaded again (ADR 093). */
export const shouldRevalidate = keptAfterCardEntry;

export const meta: MetaFunction = () => [
  { title: "Raffle Rush — micro-stakes raffles" },
  { name: "description", content: "Fast, provably fair raffles from $0.05. The winner takes half the pot." },
];

/** Errors no page caught: the root loader's own, or a page without a boundary of its own. */
export function ErrorBoundary() {
  const status = useErrorStatus();
  if (status === 404) return <NotFound />;
  return (
    <ErrorFrame title={status === 503 ? "We’ll be right back" : "Something went wrong"}>
      <p>{generalMessage(status)}</p>
    </ErrorFrame>
  );
}
