/** "2026-06-08 11:00 UTC": how pages and messages state a moment. */
export function utcMinute(at: Date | string): string {
  return `${new Date(at).toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

// Made once: a formatter made per call (`toLocaleDateString` with options) costs about 0.1 ms.
const longDate = new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeZone: "UTC" });

/** "November 22, 2026": a day as prose states it, in UTC. */
export function longUtcDate(at: Date | string): string {
  return longDate.format(new Date(at));
}
