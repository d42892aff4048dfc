/**
 * The name mark (docs/design.md): a ticket with a bolt, and the name in the display face.
 * One image with one name, so that a link around it is named "Raffle Rush".
 */
export function Logo({ className = "h-8 w-auto" }: { className?: string }) {
  return (
    <svg viewBox="0 0 168 32" role="img" aria-label="Raffle Rush" className={className} data-testid="logo">
      <path className="fill-accent" d="M5 3h22a5 5 0 0 1 5 5v5a3 3 0 0 0 0 6v5a5 5 0 0 1-5 5H5a5 5 0 0 1-5-5v-5a3 3 0 0 0 0-6V8a5 5 0 0 1 5-5z" />
      <path className="fill-gold" d="M18.5 6 9 18h6l-2 8 10-12.5h-6.2z" />
      {/* textLength: the words keep their width in any face, so the header never reflows. */}
      <text x="40" y="23.5" textLength="126" lengthAdjust="spacingAndGlyphs" className="fill-current font-display text-[21px] font-bold">
        Raffle <tspan className="fill-accent-ink">Rush</tspan>
      </text>
    </svg>
  );
}
