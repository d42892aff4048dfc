/**
 * The mark beside the name of one of the demo crowd's simulated players: wherever
 * a player is named, a person can tell a demo player from a real one.
 */
export function DemoMark({ isDemo }: { isDemo?: boolean | null }) {
  if (!isDemo) return null;
  // The space keeps "Ava12 demo" two words for screen readers and copied text.
  return (
    <>
      {" "}
      <span
        className="inline-block rounded border border-current px-1 align-middle text-[0.7em] font-semibold uppercase leading-tight tracking-wide"
        title="A simulated demo player"
        data-testid="demo-mark"
      >
        demo
      </span>
    </>
  );
}
