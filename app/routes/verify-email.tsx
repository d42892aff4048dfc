import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { AccountCard } from "~/components/account-card";
import { buttonClass } from "~/components/form-fields";
import { requireUser } from "~/services/auth.server";
import { sendVerification, verifyEmailByCode, verifyEmailByToken } from "~/services/email-tokens.server";
import { expectedErrorMessage, readForm } from "~/infra/http.server";
import { redirectWithToast } from "~/infra/toast.server";
import { PageError } from "~/components/route-error";

/**
 * Email verification (ADR 032). The link from the message opens a page whose button
 * POSTs the token (a mail scanner that follows links verifies nothing); the withdraw
 * page posts the 6-digit code, or asks for a new message ("resend").
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token");
  if (!token) throw redirect("/withdraw");
  return { token: token.slice(0, 200) };
}

export async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(request);
  const intent = String(form.get("intent") ?? "");
  try {
    if (intent === "link") {
      await verifyEmailByToken(String(form.get("token") ?? ""));
      return redirectWithToast("/withdraw", { type: "success", title: "Email verified", description: "Thank you: your email address is verified." });
    }
    const user = await requireUser(request);
    if (intent === "code") {
      await verifyEmailByCode(user.id, String(form.get("code") ?? "").trim());
      return redirectWithToast("/withdraw", { type: "success", title: "Email verified", description: "Thank you: your email address is verified." });
    }
    if (intent === "resend") {
      await sendVerification(user.id, { resend: true });
      return redirectWithToast("/withdraw", { type: "success", title: "Message sent", description: `We sent a new link and code to ${user.email}.` });
    }
    return Response.json({ message: "Unknown action" }, { status: 400 });
  } catch (error) {
    const message = expectedErrorMessage(error);
    if (!message) throw error;
    return redirectWithToast("/withdraw", { type: "error", title: "Not verified", description: message });
  }
}

export default function VerifyEmail() {
  const { token } = useLoaderData<typeof loader>();
  return (
    <AccountCard title="Verify your email">
      <p>Confirm that this email address is yours.</p>
      <Form method="post" className="flex flex-col gap-4">
        <input type="hidden" name="intent" value="link" />
        <input type="hidden" name="token" value={token} />
        <button type="submit" className={buttonClass}>
          Verify my email
        </button>
      </Form>
    </AccountCard>
  );
}

export const meta: MetaFunction = () => [{ title: "Verify your email — Raffle Rush" }];

export function ErrorBoundary() {
  return <PageError title="Your email could not be verified here" back={{ to: "/withdraw", label: "Back to withdrawals" }} />;
}
