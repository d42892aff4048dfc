/**
 * The mark beside the name of one of the demo crowd's simulated players (ADR 074): wherever
 * a player is named, a person can tell a demo player from a real one.
 */
export function DemoMark({ isDemo }: { isDemo?: boolean | null }) {
  if (!isDemo) return null;
  return (
    <span
      className="ml-1 inline-block rounded border border-current px-1 align-middle text-[0.7em] font-semibold uppercase leading-tight tracking-wide opacity-80"
      title="A simulated demo player"
      data-testid="demo-mark"
    >
      demo
    </span>
  );
}
