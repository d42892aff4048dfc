import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLoaderData,
  useRouteError,
  useRouteLoaderData,
} from "@remix-run/react";
import { useEffect, type ReactNode } from "react";
import { useNonce } from "./components/nonce";
import { DemoBanner } from "./components/demo-banner";
import { NotFound } from "./components/not-found";
import { Toaster } from "./components/toaster";
import { getSession, needsOnboarding } from "./services/auth.server";
import { getEnv } from "./services/env.server";
import { takeOutcomeNotice } from "./services/outcomes.server";
import { takePayoutNotice } from "./services/payouts.server";
import { playState, type PlayState } from "./services/reality-check.server";
import { getTheme } from "./services/theme.server";
import { readToast } from "./services/toast.server";
import { userRecord, type UserRecord } from "./services/users.server";
import stylesheet from "./tailwind.css?url";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: stylesheet },
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
        // A win or a refund (ADR 028) waits for both; the session says whether any is waiting.
        session.user.hasOutcomeNews && !toast && !session.user.payoutNoticeId ? takeOutcomeNotice(session.user.id) : null,
      ])
    : [null, null, null, null];
  return Response.json(
    {
      theme,
      toast:
        toast ??
        (payoutNotice && { id: `${session!.user.payoutNoticeId}:${payoutNotice.title}`, type: "info", ...payoutNotice }) ??
        outcomeNotice,
      user,
      play,
      supportEmail: getEnv().SUPPORT_EMAIL,
      demoMode: getEnv().demoMode,
      serverNow: Date.now(),
    },
    { headers: headers ?? undefined },
  );
}

export type RootData = {
  theme: "light" | "dark";
  toast: import("./components/toaster").ToastMessage | null;
  user: UserRecord | null;
  /** The signed-in player's stretch of play and reality check. */
  play: PlayState | null;
  supportEmail: string;
  /** Demo payments, no real money: every page says so (DemoBanner). */
  demoMode: boolean;
  serverNow: number;
};

export function Layout({ children }: { children: ReactNode }) {
  const data = useRouteLoaderData<RootData>("root");
  const nonce = useNonce();
  return (
    <html lang="en" className={data?.theme === "dark" ? "dark" : undefined}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body className="min-h-screen bg-slate-50 text-slate-900 antialiased dark:bg-slate-950 dark:text-slate-100">
        {data?.demoMode ? <DemoBanner /> : null}
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  const { toast } = useLoaderData<RootData>();
  useEffect(() => {
    // Lets tests (and styles) tell a hydrated page from server HTML.
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return (
    <Toaster flash={toast}>
      <Outlet />
    </Toaster>
  );
}

export const meta: MetaFunction = () => [
  { title: "Raffle Rush — micro-stakes raffles" },
  { name: "description", content: "Fast, provably fair raffles from $0.05. The winner takes half the pot." },
];

export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />;
  // Never show a stack trace or server message: the request id in the logs is enough to find it.
  const status = isRouteErrorResponse(error) ? error.status : 500;
  return (
    <main className="mx-auto flex min-h-screen max-w-lg flex-col items-center justify-center gap-4 p-6 text-center">
      <h1 className="text-3xl font-bold">Something went wrong</h1>
      <p>
        {status >= 500
          ? "We hit a problem on our side. Your coins are safe; please try again in a moment."
          : "That request could not be completed."}
      </p>
      <a className="rounded-md bg-brand-700 px-4 py-2 font-semibold text-white" href="/">
        Back to the home page
      </a>
    </main>
  );
}
