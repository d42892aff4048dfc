import { createCookieSessionStorage, redirect } from "@remix-run/node";
import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { NewToast, ToastMessage } from "~/shared/toast";
import { getEnv } from "~/infra/env.server";
import { sessionSecret } from "~/infra/session-secret.server";

/**
 * One-time flash toasts: a message set before a redirect travels in a signed
 * cookie and is shown (and cleared) by the next page, so plain form posts get
 * the same feedback as JavaScript fetchers.
 */
const toastSchema = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string().optional(),
  type: z.enum(["success", "error", "info"]),
});

const KEY = "toast" as const;

type FlashData = { [KEY]: ToastMessage };
let storage: ReturnType<typeof createCookieSessionStorage<Record<string, never>, FlashData>> | undefined;
function toastStorage() {
  storage ??= createCookieSessionStorage<Record<string, never>, FlashData>({
    cookie: {
      name: "__toast",
      path: "/",
      httpOnly: true,
      sameSite: "lax",
      secure: getEnv().secureCookies,
      secrets: [sessionSecret()],
    },
  });
  return storage;
}

export type { NewToast };

export async function toastHeaders(toast: NewToast): Promise<Headers> {
  const session = await toastStorage().getSession();
  session.flash(KEY, { id: randomUUID(), type: "info", ...toast });
  return new Headers({ "Set-Cookie": await toastStorage().commitSession(session) });
}

export async function redirectWithToast(url: string, toast: NewToast, init?: ResponseInit) {
  const headers = new Headers(init?.headers);
  for (const [name, value] of await toastHeaders(toast)) headers.append(name, value);
  return redirect(url, { ...init, headers });
}

/** The pending toast, if any, and the header that clears it. */
export async function readToast(request: Request): Promise<{ toast: ToastMessage | null; headers: Headers | null }> {
  const session = await toastStorage().getSession(request.headers.get("Cookie"));
  if (!session.has(KEY)) return { toast: null, headers: null };
  const parsed = toastSchema.safeParse(session.get(KEY));
  const headers = new Headers({ "Set-Cookie": await toastStorage().destroySession(session) });
  return { toast: parsed.success ? parsed.data : null, headers };
}
