import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { z } from "zod";
import { pageOf } from "~/infra/page-action.server";
import { safeRedirectPath } from "~/shared/safe-redirect";
import { setThemeCookie, themeSchema } from "~/infra/theme.server";
import { readForm } from "~/infra/http.server";

const schema = z.object({ theme: themeSchema, redirectTo: z.string().optional() });

/**
 * Sets the theme cookie and goes back to the page (`redirectTo`, else the page the form was
 * on): one answer for the settings dialog's fetcher and the plain form (ADR 040).
 */
export async function action({ request }: ActionFunctionArgs) {
  const parsed = schema.safeParse(Object.fromEntries(await readForm(request)));
  if (!parsed.success) return Response.json({ message: "Theme must be light or dark" }, { status: 400 });
  const headers = { "Set-Cookie": await setThemeCookie(parsed.data.theme), "X-Remix-Replace": "true" };
  return redirect(safeRedirectPath(parsed.data.redirectTo, pageOf(request, "/")), { headers });
}

export function loader() {
  throw new Response("Not Found", { status: 404 });
}
