import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { z } from "zod";
import { safeRedirectPath } from "~/shared/safe-redirect";
import { setThemeCookie, themeSchema } from "~/infra/theme.server";
import { readForm } from "~/infra/http.server";

const schema = z.object({ theme: themeSchema, redirectTo: z.string().optional() });

/** Sets the theme cookie; a plain form post (JavaScript off) comes back to the page it came from. */
export async function action({ request }: ActionFunctionArgs) {
  const parsed = schema.safeParse(Object.fromEntries(await readForm(request)));
  if (!parsed.success) return Response.json({ message: "Theme must be light or dark" }, { status: 400 });
  const headers = { "Set-Cookie": await setThemeCookie(parsed.data.theme) };
  if (request.headers.get("Accept")?.includes("application/json")) {
    return Response.json({ theme: parsed.data.theme }, { headers });
  }
  return redirect(safeRedirectPath(parsed.data.redirectTo), { headers });
}

export function loader() {
  throw new Response("Not Found", { status: 404 });
}
