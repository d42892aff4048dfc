import { useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { AccountCard } from "~/components/account-card";
import { AddPasskey } from "~/components/passkey-buttons";
import { FormErrors } from "~/components/form-fields";
import { PageError } from "~/components/route-error";
import { requireUser } from "~/web/auth.server";
import { longUtcDate } from "~/shared/dates";
import { expectedFailure, readForm } from "~/web/http.server";
import { listPasskeys, relyingParty, removePasskey } from "~/services/accounts/passkeys.server";
import { redirectWithToast } from "~/web/toast.server";

const schema = z.object({
  intent: z.literal("remove", { message: "Unknown action" }),
  passkeyId: z.uuid({ message: "Unknown passkey" }),
});

/**
 * The account's passkeys (docs/decisions/037-passkeys-and-email-change.md): listed and
 * removed with plain forms; adding one needs JavaScript (the browser's WebAuthn API).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return { enabled: relyingParty(request) !== undefined, passkeys: await listPasskeys(user.id) };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const submission = parseWithZod(await readForm(request), { schema });
  if (submission.status !== "success") return Response.json(submission.reply(), { status: 400 });
  try {
    const name = await removePasskey(user.id, submission.value.passkeyId);
    return redirectWithToast("/account/passkeys", { type: "success", title: "Passkey removed", description: `"${name}" no longer signs you in.` });
  } catch (error) {
    const message = expectedFailure(error)?.message;
    if (!message) throw error;
    return Response.json(submission.reply({ formErrors: [message] }), { status: 404 });
  }
}

export default function Passkeys() {
  const { enabled, passkeys } = useLoaderData<typeof loader>();
  // Each row's form has only hidden fields: a refusal (an unknown or removed passkey) shows above the list.
  const lastResult = useActionData<typeof action>();
  const [form] = useForm({ id: "remove-passkey", lastResult });
  return (
    <AccountCard title="Passkeys">
      <p className="text-sm">
        A passkey signs you in with your device&apos;s screen lock (fingerprint, face or PIN) instead of your password. It stays on your device or in your
        password manager; we keep only its public key.
      </p>
      <FormErrors errors={Object.values(form.allErrors).flat()} />
      {passkeys.length === 0 ? (
        <p className="text-sm" data-testid="no-passkeys">
          You have no passkeys yet.
        </p>
      ) : (
        <ul className="flex flex-col gap-3" aria-label="Your passkeys">
          {passkeys.map((p) => (
            <li key={p.id} className="flex items-center justify-between gap-3 rounded-md border border-line p-3" data-testid="passkey">
              <span className="min-w-0 break-words">
                <span className="font-semibold">{p.name}</span>
                <span className="block text-xs text-ink-muted">
                  Added {longUtcDate(p.createdAt)} · {p.lastUsedAt ? `last used ${longUtcDate(p.lastUsedAt)}` : "not used yet"}
                  {p.backedUp ? " · synced" : ""}
                </span>
              </span>
              <Form method="post">
                <input type="hidden" name="intent" value="remove" />
                <input type="hidden" name="passkeyId" value={p.id} />
                <button type="submit" className="min-h-11 rounded-md border border-line-strong px-3 py-1" aria-label={`Remove ${p.name}`}>
                  Remove
                </button>
              </Form>
            </li>
          ))}
        </ul>
      )}
      {enabled ? <AddPasskey /> : <p className="text-sm">Passkeys are not set up on this site yet.</p>}
      <Link to="/settings" className="inline-flex min-h-11 items-center underline">
        Back to settings
      </Link>
    </AccountCard>
  );
}

export const meta: MetaFunction = () => [{ title: "Passkeys — Raffle Rush" }];

export function ErrorBoundary() {
  return <PageError title="Your passkeys could not be shown here" back={{ to: "/settings", label: "Back to settings" }} />;
}
