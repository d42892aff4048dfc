import { Link, useLocation } from "@remix-run/react";
import { lazy, Suspense, useState, type ReactNode } from "react";
import { displayName } from "~/shared/display-name";
import { CoinBalance } from "./coin-balance";
import { Logo } from "./logo";
import { OutcomeSignals } from "./outcome-signals";
import { PausedNotice, PlaySession } from "./play-session";
import { BottomNav, SiteFooter } from "./site-chrome";
import { useHydrated } from "./use-hydrated";
import { LiveTold } from "./live-told";
import { useLiveUpdates, type LiveGame } from "./use-live-updates";
import { UsernameDialog } from "./username-dialog";
import { useRootData, useUser } from "./use-root-data";

/** The settings dialog's code is fetched when the player first reaches for it, not with every page. */
const loadSettings = () => import("./settings-dialog");
// Code that cannot be fetched (a dropped connection, a deploy) leaves the dialog for its page.
const SettingsDialog = lazy(() =>
  loadSettings().then(
    (module) => ({ default: module.SettingsDialog }),
    () => {
      window.location.assign("/settings");
      return new Promise<never>(() => {});
    },
  ),
);

/**
 * The frame of every signed-in page: top bar, settings, footer, mobile navigation, and the
 * live updates (news for the player on every page; raffle pages pass `game` for the game's,
 * and show the pots and new rounds heard).
 */
export function PlayerShell({ children, game }: { children: ReactNode; game?: LiveGame }) {
  const root = useRootData();
  const user = useUser();
  const location = useLocation();
  const hydrated = useHydrated();
  const [settingsOpen, setSettingsOpen] = useState(false);
  // Once wanted, the dialog stays mounted (closed), as it was before it loaded on demand.
  const [settingsWanted, setSettingsWanted] = useState(false);
  const told = useLiveUpdates(game);

  return (
    <div className="min-h-screen">
      {/* Two rows on a phone (brand and coins; then the session, name, Settings and Logout), one from sm up: sticky only there, where it costs little height. */}
      <header className="z-20 flex flex-wrap items-center gap-x-3 gap-y-1 border-b border-line bg-surface/95 px-4 py-2 sm:sticky sm:top-0 sm:py-3">
        <Link to="/" className="mr-auto">
          <Logo />
        </Link>
        {/* Every coin the player can play with; its cash/bonus split opens on a tap. */}
        <CoinBalance />
        <div className="flex w-full flex-wrap items-center gap-x-2 gap-y-1 text-sm sm:w-auto sm:gap-3">
          {root.play ? <PlaySession play={root.play} serverNow={root.serverNow} /> : null}
          <span className="max-w-40 truncate">
            <span className="hidden sm:inline">Welcome, </span>
            <strong data-testid="welcome-name">{displayName(user)}</strong>
          </span>
          {/* Without JavaScript the settings are a page; with it, a dialog over this one. */}
          <a
            href="/settings"
            onClick={(event) => {
              if (!hydrated || location.pathname === "/settings") return;
              event.preventDefault();
              setSettingsWanted(true);
              setSettingsOpen(true);
            }}
            // Fetched on intent, so that it is there by the click.
            onPointerEnter={() => void loadSettings().catch(() => {})}
            onFocus={() => void loadSettings().catch(() => {})}
            className="ml-auto rounded-md border border-line-strong px-3 sm:ml-0"
          >
            Settings
          </a>
          <form method="post" action="/api/logout">
            <button type="submit" className="rounded-md border border-line-strong px-3">
              Logout
            </button>
          </form>
        </div>
      </header>
      <PausedNotice />
      <LiveTold.Provider value={told}>{children}</LiveTold.Provider>
      <SiteFooter isAdmin={user.isAdmin} />
      <BottomNav />
      {hydrated && settingsWanted ? (
        <Suspense fallback={null}>
          <SettingsDialog
            account={user}
            theme={root.theme}
            supportEmail={root.supportEmail}
            settings={user.settings}
            open={settingsOpen}
            onClose={() => setSettingsOpen(false)}
          />
        </Suspense>
      ) : null}
      <OutcomeSignals />
      {user.username ? null : <UsernameDialog />}
    </div>
  );
}
