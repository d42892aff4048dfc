import { useHydrated } from "./use-hydrated";

/** "2026-11-25 03:40:12 UTC": a moment stated in UTC, as the server renders it. */
export function utcSecond(at: string): string {
  return `${new Date(at).toISOString().slice(0, 19).replace("T", " ")} UTC`;
}

/**
 * A moment in the player's own locale and time zone ("Nov 25, 2026, 10:40:12 PM EST"),
 * with UTC in its tooltip. The server cannot know the player's zone, so the page as served
 * (and as it stays without JavaScript) says the time in UTC, labelled as such.
 */
export function LocalTime({ at, testId }: { at: string; testId?: string }) {
  const hydrated = useHydrated();
  const utc = utcSecond(at);
  return (
    <time dateTime={at} title={utc} data-testid={testId}>
      {hydrated ? new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "long" }).format(new Date(at)) : utc}
    </time>
  );
}
