import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { z } from "zod";
import { pageOf } from "~/web/page-action.server";
import { safeRedirectPath } from "~/shared/safe-redirect";
import { setThemeCookie, themeSchema } from "~/web/theme.server";
import { jsonError, readForm } from "~/web/http.server";

const schema = z.object({ theme: themeSchema, redirectTo: z.string().optional() });

/**
 * Sets the theme cookie and goes back to the page (`redirectTo`, else the page the form was
 * on): one answer for the settings dialog's fetcher and the plain form. The
 * dialog offers only the two themes, so anything else is a 400 with no field to show it by.
 */
export async function action({ request }: ActionFunctionArgs) {
  const submission = parseWithZod(await readForm(request), { schema });
  if (submission.status !== "success") return jsonError(400, "Theme must be light or dark");
  const headers = { "Set-Cookie": await setThemeCookie(submission.value.theme), "X-Remix-Replace": "true" };
  return redirect(safeRedirectPath(submission.value.redirectTo, pageOf(request, "/")), { headers });
}

export function loader() {
  throw new Response("Not Found", { status: 404 });
}
