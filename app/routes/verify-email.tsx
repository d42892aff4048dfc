import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { AccountCard } from "~/components/account-card";
import { EmailVerificationPanel } from "~/components/email-verification-panel";
import { buttonClass, FormErrors } from "~/components/form-fields";
import { requireUser } from "~/web/auth.server";
import { emailVerification, sendVerification, verifyEmailByCode, verifyEmailByToken } from "~/services/accounts/email-tokens.server";
import { expectedFailure, readForm } from "~/web/http.server";
import { RateLimited } from "~/services/system/rate-limit.server";
import { redirectWithToast } from "~/web/toast.server";
import { PageError } from "~/components/route-error";
import { verifyEmailSchema as schema, verifyLinkSchema } from "~/shared/email-code-forms";
import { passActionHeaders } from "~/web/action-headers";

/**
 * Email verification. The link from the message opens a page whose button
 * POSTs the token (a mail scanner that follows links verifies nothing); the withdraw
 * page's panel posts the 6-digit code, or asks for a new message ("resend"). Without a
 * token the page is that panel, where a refused code shows without JavaScript.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token");
  if (token) return { mode: "link" as const, token: token.slice(0, 200) };
  const user = await requireUser(request);
  const { email, verified } = await emailVerification(user.id);
  if (verified) throw redirect("/withdraw");
  return { mode: "code" as const, email };
}

const VERIFIED = { type: "success", title: "Email verified", description: "Thank you: your email address is verified." } as const;

/** Success goes to /withdraw with its toast; a refusal is a conform reply (400, 429 limited) shown beside its field. */
export async function action({ request }: ActionFunctionArgs) {
  const submission = parseWithZod(await readForm(request), { schema });
  if (submission.status !== "success") return Response.json(submission.reply(), { status: 400 });
  const input = submission.value;
  try {
    if (input.intent === "link") {
      await verifyEmailByToken(input.token);
      return redirectWithToast("/withdraw", VERIFIED);
    }
    const user = await requireUser(request);
    if (input.intent === "code") {
      await verifyEmailByCode(user.id, input.code);
      return redirectWithToast("/withdraw", VERIFIED);
    }
    await sendVerification(user.id, { resend: true });
    return redirectWithToast("/withdraw", { type: "success", title: "Message sent", description: `We sent a new link and code to ${user.email}.` });
  } catch (error) {
    const message = expectedFailure(error)?.message;
    if (!message) throw error;
    const limited = error instanceof RateLimited ? { status: 429, headers: { "Retry-After": String(error.retryAfterSeconds) } } : { status: 400 };
    const reply =
      input.intent === "code" && !(error instanceof RateLimited)
        ? submission.reply({ fieldErrors: { code: [message] } })
        : submission.reply({ formErrors: [message] });
    return Response.json(reply, limited);
  }
}

function ConfirmLink({ token }: { token: string }) {
  const lastResult = useActionData<typeof action>();
  const [form] = useForm({ id: "verify-email-link", lastResult, onValidate: ({ formData }) => parseWithZod(formData, { schema: verifyLinkSchema }) });
  return (
    <AccountCard title="Verify your email">
      <p>Confirm that this email address is yours.</p>
      <Form method="post" action={`/verify-email?token=${encodeURIComponent(token)}`} {...getFormProps(form)} className="flex flex-col gap-4">
        <FormErrors errors={Object.values(form.allErrors).flat()} />
        <input type="hidden" name="intent" value="link" />
        <input type="hidden" name="token" value={token} />
        <button type="submit" className={buttonClass}>
          Verify my email
        </button>
      </Form>
    </AccountCard>
  );
}

export default function VerifyEmail() {
  const data = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  if (data.mode === "link") return <ConfirmLink token={data.token} />;
  return (
    <main className="mx-auto flex max-w-3xl flex-col gap-4 px-4 py-10">
      <EmailVerificationPanel email={data.email} lastResult={lastResult} />
      <Link to="/withdraw" className="underline">
        Back to withdrawals
      </Link>
    </main>
  );
}

export const meta: MetaFunction = () => [{ title: "Verify your email — Raffle Rush" }];

export const headers = passActionHeaders("Retry-After");

export function ErrorBoundary() {
  return <PageError title="Your email could not be verified here" back={{ to: "/withdraw", label: "Back to withdrawals" }} />;
}
