import { createCookie } from "@remix-run/node";
import { getEnv } from "~/infra/env.server";
import { sessionSecret } from "~/infra/session-secret.server";

/**
 * Who may see and confirm a pending enrolment: the session that began it (for an admin,
 * the one that gave the bootstrap key), for 15 minutes. Another session of the same
 * account (a stolen password without the key) sees nothing pending and cannot confirm.
 */
let enrolmentCookie: ReturnType<typeof createCookie> | undefined;
function cookie() {
  enrolmentCookie ??= createCookie("__enrol", {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    secure: getEnv().secureCookies,
    secrets: [sessionSecret()],
    maxAge: 15 * 60,
  });
  return enrolmentCookie;
}

export function enrolmentCookieFor(sessionId: string): Promise<string> {
  return cookie().serialize(sessionId);
}

export async function enrolmentBelongsTo(request: Request, sessionId: string): Promise<boolean> {
  return (await cookie().parse(request.headers.get("Cookie"))) === sessionId;
}

export function clearEnrolmentCookie(): Promise<string> {
  return cookie().serialize("", { maxAge: 0 });
}
