import { parseIsoDay } from "./dates";
import { UUID } from "./uuid";

/**
 * Where a page of a newest-first list ended: its last row's time and id, written
 * "<ISO time>_<uuid>" into the next page's link (the /fair list, the player's history).
 */
export type PageCursor = { at: Date; id: string };

const TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** `at`: the row's time as toISOString writes it. */
export const writePageCursor = (at: string, id: string) => `${at}_${id}`;

/** The cursor a page link carries; undefined when malformed. */
export function readPageCursor(text: string | null | undefined): PageCursor | undefined {
  const [time = "", id = "", ...rest] = (text?.trim() ?? "").split("_");
  // A day PostgreSQL and the calendar have (year 1900 to 9999): "0000-01-01" would fail in the query.
  if (rest.length > 0 || !TIME.test(time) || !UUID.test(id) || !parseIsoDay(time.slice(0, 10))) return undefined;
  const at = new Date(time);
  return Number.isNaN(at.getTime()) ? undefined : { at, id };
}
