import { createCookie } from "@remix-run/node";
import { z } from "zod";
import { getEnv } from "~/infra/env.server";

/**
 * The theme lives in a cookie (as well as browser storage) so the server renders
 * the right class on <html> and the page never flashes the wrong theme.
 */
export const themeSchema = z.enum(["light", "dark"]);
export type Theme = z.infer<typeof themeSchema>;

const themeCookie = createCookie("theme", { path: "/", sameSite: "lax", maxAge: 60 * 60 * 24 * 365 });

export async function getTheme(request: Request): Promise<Theme> {
  const parsed = themeSchema.safeParse(await themeCookie.parse(request.headers.get("Cookie")));
  return parsed.success ? parsed.data : "light";
}

export function setThemeCookie(theme: Theme): Promise<string> {
  return themeCookie.serialize(theme, { secure: getEnv().secureCookies });
}
