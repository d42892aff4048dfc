import { parseIsoDay } from "./dates";

/**
 * Where a page of a newest-first list ended: its last row's time and id, written
 * "<ISO time>_<uuid>" into the next page's link (the /fair list, the player's history).
 */
export type PageCursor = { at: Date; id: string };

const CURSOR = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)_([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

export const writePageCursor = (at: Date | string, id: string) => `${typeof at === "string" ? at : at.toISOString()}_${id}`;

/** The cursor a page link carries; undefined when malformed. */
export function readPageCursor(text: string | null | undefined): PageCursor | undefined {
  const match = CURSOR.exec(text?.trim() ?? "");
  // A day PostgreSQL and the calendar have (year 1900 to 9999): "0000-01-01" would fail in the query.
  if (!match || !parseIsoDay(match[1]!.slice(0, 10))) return undefined;
  const at = new Date(match[1]!);
  return Number.isNaN(at.getTime()) ? undefined : { at, id: match[2]! };
}
