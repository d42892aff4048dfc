import { useLocation, useRevalidator } from "@remix-run/react";
import { useEffect, useLayoutEffect, useRef } from "react";

/** On the server neither effect runs, and React warns about a layout effect there. */
const useLayoutEffectInBrowser = typeof document === "undefined" ? useEffect : useLayoutEffect;

/**
 * Keeps the player where they scrolled while the page's data reloads. The router notes the
 * scroll position when a reload starts and scrolls back to it when the reload ends, so a
 * player who scrolled (or followed an in-page link) meanwhile was pulled back. Live pages
 * reload on every pot change, up to once a second. Called in the root Layout, so that its
 * layout effect runs after ScrollRestoration's, in the same commit, before the paint.
 */
export function useScrollKeptThroughReloads() {
  const { state } = useRevalidator();
  const { key } = useLocation();
  const lastY = useRef(0);
  const reloadingOn = useRef<string | undefined>(undefined);

  useEffect(() => {
    // Scroll events come after a frame, so at the layout effect this is still the player's
    // own position, not the router's jump.
    const onScroll = () => {
      lastY.current = window.scrollY;
    };
    onScroll();
    window.addEventListener("scroll", onScroll, { passive: true });
    return () => window.removeEventListener("scroll", onScroll);
  }, []);

  useLayoutEffectInBrowser(() => {
    if (state === "loading") {
      reloadingOn.current ??= key;
      return;
    }
    const reloaded = reloadingOn.current;
    reloadingOn.current = undefined;
    // A reload that became a navigation to another page leaves that page's scrolling alone.
    if (reloaded === key && window.scrollY !== lastY.current) window.scrollTo(0, lastY.current);
  }, [state, key]);
}
