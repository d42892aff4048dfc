import { Link } from "@remix-run/react";
import { usePaused } from "./play-session";

/**
 * The footer of every page: legal links, fair play, History (signed in) and Support (admins
 * only). Signed in, it leaves room under it for the mobile bottom navigation.
 */
export function SiteFooter({ isAdmin = false, signedIn = true }: { isAdmin?: boolean; signedIn?: boolean }) {
  // 44 px tall: a row of small links is easy to miss with a finger.
  const link = "inline-flex min-h-11 items-center underline";
  return (
    <footer className={`mt-10 flex flex-wrap justify-center gap-x-6 gap-y-1 border-t border-line px-4 py-6 text-sm ${signedIn ? "pb-24 sm:pb-6" : ""}`}>
      <Link to="/terms" className={link}>
        Terms of Service
      </Link>
      <Link to="/privacy" className={link}>
        Privacy Policy
      </Link>
      <Link to="/rules" className={link}>
        Rules &amp; odds
      </Link>
      <Link to="/fair" className={link}>
        Fair draws
      </Link>
      {signedIn ? (
        <Link to="/history" className={link}>
          History
        </Link>
      ) : null}
      <Link to="/responsible-play" className={link}>
        Responsible play
      </Link>
      {isAdmin ? (
        <Link to="/admin" className={link}>
          Support
        </Link>
      ) : null}
    </footer>
  );
}

/** Mobile bottom navigation: Home, Raffles, Winners, Profile (the account page, with Logout inside: PRODUCT.md). */
export function BottomNav() {
  const paused = usePaused() !== null;
  const item = "flex min-h-12 flex-1 flex-col items-center justify-center text-xs font-semibold";
  return (
    <nav aria-label="Mobile" className="fixed inset-x-0 bottom-0 z-30 flex border-t border-line bg-surface sm:hidden">
      <Link to="/" className={item}>
        Home
      </Link>
      {/* While play is stopped no link leads to raffles (PRODUCT.md). */}
      {paused ? null : (
        <>
          {/* The router's links: from another page, home comes as data and the router scrolls to the section. */}
          <Link to="/#featured" className={item}>
            Raffles
          </Link>
          <Link to="/#winners" className={item}>
            Winners
          </Link>
        </>
      )}
      <Link to="/account" className={item}>
        Profile
      </Link>
    </nav>
  );
}
