import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { AccountCard } from "~/components/account-card";
import { buttonClass, inputClass } from "~/components/form-fields";
import { PageError } from "~/components/route-error";
import { requireUser } from "~/services/auth.server";
import { confirmEmailChangeByCode, confirmEmailChangeByToken, pendingEmailChange, requestEmailChange } from "~/services/email-change.server";
import { expectedErrorMessage, readForm } from "~/infra/http.server";
import { PASSWORD_MAX } from "~/shared/password-policy";
import { RateLimited } from "~/services/rate-limit.server";
import { redirectWithToast } from "~/infra/toast.server";

const schema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("request"), newEmail: z.string().trim().email("Enter a valid email address").max(254), password: z.string().min(1, "Enter your password").max(PASSWORD_MAX) }),
  z.object({ intent: z.literal("code"), code: z.string().trim().max(20) }),
  z.object({ intent: z.literal("link"), token: z.string().max(200) }),
]);

/**
 * Changing the email (docs/decisions/037-passkeys-and-email-change.md): the player asks with
 * their password; the new address gets a link (this page with ?token=, whose button POSTs,
 * so a mail scanner changes nothing) and a code typed here. Plain forms: no JavaScript needed.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token");
  if (token) return { mode: "link" as const, token: token.slice(0, 200) };
  const user = await requireUser(request);
  return { mode: "change" as const, email: user.email, pending: (await pendingEmailChange(user.id)) ?? null };
}

export async function action({ request }: ActionFunctionArgs) {
  const parsed = schema.safeParse(Object.fromEntries(await readForm(request)));
  if (!parsed.success) return Response.json({ message: parsed.error.issues[0]?.message ?? "Check the form and try again." }, { status: 400 });
  const input = parsed.data;
  try {
    if (input.intent === "link") {
      await confirmEmailChangeByToken(input.token);
      return redirectWithToast("/settings", { type: "success", title: "Email changed", description: "Your account uses its new, verified address from now on." });
    }
    const user = await requireUser(request);
    if (input.intent === "code") {
      await confirmEmailChangeByCode(user.id, input.code);
      return redirectWithToast("/settings", { type: "success", title: "Email changed", description: "Your account uses its new, verified address from now on." });
    }
    const address = await requestEmailChange(user.id, input);
    return redirectWithToast("/account/email", { type: "success", title: "Check your new inbox", description: `We sent a link and a code to ${address}.` });
  } catch (error) {
    const message = expectedErrorMessage(error);
    if (!message) throw error;
    const status = error instanceof RateLimited ? 429 : 400;
    return Response.json({ message }, { status, headers: error instanceof RateLimited ? { "Retry-After": String(error.retryAfterSeconds) } : undefined });
  }
}

function ConfirmLink({ token }: { token: string }) {
  const refused = useActionData<{ message: string }>();
  return (
    <AccountCard title="Confirm your new email">
      <p>Use this address for your Raffle Rush account.</p>
      {refused ? <p role="alert" className="text-sm text-red-700 dark:text-red-400">{refused.message}</p> : null}
      <Form method="post" className="flex flex-col gap-4">
        <input type="hidden" name="intent" value="link" />
        <input type="hidden" name="token" value={token} />
        <button type="submit" className={buttonClass}>Use this address</button>
      </Form>
    </AccountCard>
  );
}

export default function ChangeEmail() {
  const data = useLoaderData<typeof loader>();
  const refused = useActionData<{ message: string }>();
  const busy = useNavigation().state === "submitting";
  if (data.mode === "link") return <ConfirmLink token={data.token} />;
  return (
    <AccountCard title="Change email">
      <p className="text-sm">
        Your address: <strong data-testid="current-email">{data.email}</strong>. It changes only once you confirm the new one with the link or code we send
        there; we tell your current address when it has changed.
      </p>
      {refused ? <p role="alert" className="text-sm text-red-700 dark:text-red-400" data-testid="email-change-error">{refused.message}</p> : null}
      {data.pending ? (
        <Form method="post" className="flex flex-col gap-3" aria-labelledby="code-title">
          <h2 id="code-title" className="font-semibold">Waiting for <span data-testid="pending-email">{data.pending}</span></h2>
          <input type="hidden" name="intent" value="code" />
          <label className="flex flex-col gap-1 text-sm font-semibold">
            6-digit code from the message
            <input name="code" inputMode="numeric" autoComplete="one-time-code" pattern="\d{6}" maxLength={6} required className={inputClass} />
          </label>
          <button type="submit" disabled={busy} className={buttonClass}>Confirm new email</button>
        </Form>
      ) : null}
      <Form method="post" className="flex flex-col gap-3" aria-labelledby="request-title">
        <h2 id="request-title" className="font-semibold">{data.pending ? "Use another address" : "New address"}</h2>
        <input type="hidden" name="intent" value="request" />
        <label className="flex flex-col gap-1 text-sm font-semibold">
          New email
          <input type="email" name="newEmail" autoComplete="email" required maxLength={254} className={inputClass} />
        </label>
        <label className="flex flex-col gap-1 text-sm font-semibold">
          Your password
          <input type="password" name="password" autoComplete="current-password" required maxLength={PASSWORD_MAX} className={inputClass} />
        </label>
        <button type="submit" disabled={busy} className={buttonClass}>Send confirmation</button>
      </Form>
      <Link to="/settings" className="inline-flex min-h-11 items-center underline">Back to settings</Link>
    </AccountCard>
  );
}

export const meta: MetaFunction = () => [{ title: "Change email — Raffle Rush" }];

export function ErrorBoundary() {
  return <PageError title="Your email address could not be changed here" back={{ to: "/settings", label: "Back to settings" }} />;
}
