import { Link } from "@remix-run/react";

/** The footer of every page: legal links, fair play, and Support (admins only). */
export function SiteFooter({ isAdmin }: { isAdmin: boolean }) {
  return (
    <footer className="mt-10 flex flex-wrap justify-center gap-6 border-t border-slate-200 px-4 py-6 pb-24 text-sm sm:pb-6 dark:border-slate-800">
      <Link to="/terms" className="underline">Terms of Service</Link>
      <Link to="/privacy" className="underline">Privacy Policy</Link>
      <Link to="/rules" className="underline">Rules &amp; odds</Link>
      <Link to="/fair" className="underline">Fair draws</Link>
      <Link to="/history" className="underline">History</Link>
      <Link to="/responsible-play" className="underline">Responsible play</Link>
      {isAdmin ? <Link to="/admin" className="underline">Support</Link> : null}
    </footer>
  );
}

/** Mobile bottom navigation: Home, Raffles, Winners, Profile (Profile signs out, as the spec says). */
export function BottomNav() {
  const item = "flex flex-1 flex-col items-center py-2 text-xs font-semibold";
  return (
    <nav aria-label="Mobile" className="fixed inset-x-0 bottom-0 z-30 flex border-t border-slate-200 bg-white sm:hidden dark:border-slate-800 dark:bg-slate-900">
      <Link to="/" className={item}>Home</Link>
      <a href="/#featured" className={item}>Raffles</a>
      <a href="/#winners" className={item}>Winners</a>
      <form method="post" action="/api/logout" className="flex flex-1">
        <button type="submit" className={item}>Profile</button>
      </form>
    </nav>
  );
}
