import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { ADMIN_TABS } from "~/components/admin-tabs";
import { requireAdmin } from "~/web/auth.server";

/**
 * `/admin` opens the first tab. `/admin?tab=X&...`, a tab's address before the tabs became
 * nested routes, goes to `/admin/X?...` with its other parameters kept, so that old
 * links and bookmarks still work; an unknown tab is the first one.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const params = new URL(request.url).searchParams;
  const tab = ADMIN_TABS.find((t) => t === params.get("tab")) ?? ADMIN_TABS[0];
  params.delete("tab");
  return redirect(params.size > 0 ? `/admin/${tab}?${params}` : `/admin/${tab}`);
}
