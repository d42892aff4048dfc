import { z } from "zod";
import { EARLIEST_YEAR, LATEST_YEAR, parseIsoDay } from "./dates";

// Apart from dates.ts: pages that only format dates (home among them) load no zod.
/** A form field holding a calendar day (parseIsoDay), with the messages a player reads. */
export function isoDayField(missing: string) {
  return z
    .string({ message: missing })
    .trim()
    .min(1, missing)
    .transform((text, ctx) => {
      const day = parseIsoDay(text);
      if (!day) {
        ctx.addIssue({ code: "custom", message: `Enter a real date between ${EARLIEST_YEAR} and ${LATEST_YEAR}, like 1990-02-28` });
        return z.NEVER;
      }
      return day;
    });
}
