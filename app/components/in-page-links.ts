import { useEffect } from "react";

/**
 * Links to a section of the page the player is on (#featured, /#winners on home) scroll to
 * it here. Left to the browser, each made a history entry without the router's state, and
 * the router then restored a stale scroll position on it: such links worked once per page
 * load (issue 33). Without JavaScript the browser's own jump is right.
 */
export function useInPageLinks() {
  useEffect(() => {
    const onClick = (event: MouseEvent) => {
      if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const link = event.target instanceof Element ? event.target.closest("a[href*='#']") : null;
      if (!(link instanceof HTMLAnchorElement) || link.target) return;
      const url = new URL(link.href);
      const here = window.location;
      if (!url.hash || url.origin !== here.origin || url.pathname !== here.pathname || url.search !== here.search) return;
      const section = document.getElementById(decodeURIComponent(url.hash.slice(1)));
      if (!section) return;
      event.preventDefault();
      section.scrollIntoView();
      // Replaced with the router's own state, so that it restores nothing stale on it.
      window.history.replaceState(window.history.state, "", url.hash);
    };
    document.addEventListener("click", onClick);
    return () => document.removeEventListener("click", onClick);
  }, []);
}
