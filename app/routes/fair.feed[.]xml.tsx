import type { LoaderFunctionArgs } from "@remix-run/node";
import { getEnv } from "~/infra/env.server";
import { fairFeed, readFeedCursor } from "~/services/fairness/feed.server";
import { queryParams } from "~/web/http.server";

/** The public Atom feed of commitments and results. Public, like every draw page. */
export async function loader({ request }: LoaderFunctionArgs) {
  const before = queryParams(request).get("before");
  const cursor = before === null ? undefined : readFeedCursor(before);
  if (before !== null && !cursor) {
    return new Response('That page of the feed does not exist: follow the feed\'s rel="next" links.\n', {
      status: 400,
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    });
  }
  const origin = getEnv().PUBLIC_URL?.replace(/\/$/, "") ?? new URL(request.url).origin;
  return new Response(await fairFeed(origin, cursor), {
    headers: { "Content-Type": "application/atom+xml; charset=utf-8", "Cache-Control": "public, max-age=2" },
  });
}
