import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/web/auth.server";
import { HISTORY_CSV_ROWS, readHistoryFilter, historyCsv, playerHistory } from "~/services/money/history.server";
import { jsonError, queryParams } from "~/web/http.server";

/** The history page's rows as CSV, with the same filters. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const history = await playerHistory(user.id, readHistoryFilter(queryParams(request)), { rows: HISTORY_CSV_ROWS });
  if (history.problem) return jsonError(400, history.problem);
  return new Response(historyCsv(history.rows), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="raffle-rush-history-${history.filter.from}-to-${history.filter.to}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}
