import { createCookie } from "@remix-run/node";
import { getEnv } from "~/infra/env.server";
import { safeRedirectPath } from "~/shared/safe-redirect";

/** Where a player was going before an identity provider's round trip (a same-site path only). */
const returnToCookie = () =>
  createCookie("__return_to", {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    maxAge: 10 * 60,
    secure: getEnv().secureCookies,
  });

export async function rememberReturnTo(response: Response, returnTo: string): Promise<Response> {
  const headers = new Headers(response.headers);
  headers.append("Set-Cookie", await returnToCookie().serialize(safeRedirectPath(returnTo)));
  return new Response(response.body, { status: response.status, headers });
}

export async function recallReturnTo(request: Request): Promise<{ returnTo: string; clear: string }> {
  const value = await returnToCookie().parse(request.headers.get("Cookie"));
  return { returnTo: safeRedirectPath(typeof value === "string" ? value : null), clear: await returnToCookie().serialize("", { maxAge: 0 }) };
}
