import { getEnv } from "~/infra/env.server";
import type { MailReader } from "~/infra/mail/dev-mailbox.server";
import { getOptionalUser, unauthorized } from "./auth.server";

/**
 * Who may read the demo mailbox: no one outside demo mode or with real mail
 * (404); everyone on a local embedded database, the one person trying the site; on a
 * shared demo (DATABASE_URL), only a signed-in account, and only its own mail: an open
 * mailbox there handed out every account's password resets.
 */
export async function devMailReader(request: Request): Promise<MailReader> {
  const env = getEnv();
  if (!env.demoMode || env.SMTP_URL) throw new Response("Not Found", { status: 404 });
  if (env.DATABASE_URL === undefined) return { all: true };
  const user = await getOptionalUser(request);
  if (!user) throw unauthorized(request);
  return { all: false, email: user.email };
}
