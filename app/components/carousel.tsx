import { useRef, useState, type ReactNode } from "react";
import { useHydrated } from "./use-hydrated";

/**
 * A row of cards that scrolls sideways and snaps to a card. Without JavaScript it is a plain
 * scrolling row; the row itself takes the keyboard's focus (arrow keys scroll it), and with
 * JavaScript two buttons, beside the heading above it, move it by one card, each disabled at
 * its end once the row has scrolled (the page weighs too much for a resize listener).
 */
export function Carousel({ label, children }: { label: string; children: ReactNode }) {
  const hydrated = useHydrated();
  const row = useRef<HTMLDivElement>(null);
  const [ends, setEnds] = useState({ start: true, end: false });
  const measure = () => {
    const el = row.current;
    if (!el) return;
    setEnds({ start: el.scrollLeft <= 1, end: el.scrollLeft + el.clientWidth >= el.scrollWidth - 1 });
  };
  const move = (direction: 1 | -1) => {
    const el = row.current;
    const card = el?.firstElementChild;
    if (!el || !card) return;
    // To the card before or after the one at the row's start, counted from where the row is
    // (not by a relative step, which a scroll still settling would throw off). Smooth unless the
    // player asks for less motion: the row's own scroll-behavior (motion-safe).
    const step = card.getBoundingClientRect().width + 16;
    el.scrollTo({ left: (Math.round(el.scrollLeft / step) + direction) * step });
  };
  return (
    <div className="relative">
      <div
        ref={row}
        onScroll={measure}
        className="flex snap-x snap-mandatory gap-4 overflow-x-auto pb-2 motion-safe:scroll-smooth"
        // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrollable region must be reachable by keyboard
        tabIndex={0}
        role="region"
        aria-label={label}
      >
        {children}
      </div>
      {hydrated ? (
        <div className="absolute -top-14 right-0 flex gap-2" data-testid="carousel-arrows">
          <button type="button" className="btn btn-secondary ic ic-prev px-3" aria-label="Previous" disabled={ends.start} onClick={() => move(-1)} />
          <button type="button" className="btn btn-secondary ic ic-next px-3" aria-label="Next" disabled={ends.end} onClick={() => move(1)} />
        </div>
      ) : null}
    </div>
  );
}
