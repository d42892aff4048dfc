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

/** The years a calendar day of ours may fall in: PostgreSQL has no year 0, and no date of ours is before 1900. */
export const EARLIEST_YEAR = 1900;
export const LATEST_YEAR = 9999;

/**
 * The one reader of calendar days ("YYYY-MM-DD", as `<input type="date">` sends them), for
 * every date a client sends: midnight UTC of that day, or null for anything else: another
 * shape, a signed or six-digit year ("-000001-01-01"), a day the month lacks ("1990-02-30",
 * which `new Date` would turn into March 2), or a year outside EARLIEST_YEAR–LATEST_YEAR.
 */
export function parseIsoDay(text: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < EARLIEST_YEAR || year > LATEST_YEAR || month < 1 || month > 12 || day < 1) return null;
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day ? date : null;
}
