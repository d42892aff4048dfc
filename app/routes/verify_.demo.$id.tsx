import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { buttonClass } from "~/components/form-fields";
import { PageError } from "~/components/route-error";
import { getEnv } from "~/infra/env.server";
import { DEMO_CHOICES, decideDemoCheck, demoCheckOf, type DemoChoice } from "~/services/accounts/identity.server";
import { DomainError } from "~/shared/domain-error";
import { endSession, forgetCachedSession, requireUser } from "~/web/auth.server";
import { readForm } from "~/web/http.server";
import { redirectWithToast } from "~/web/toast.server";

/**
 * The demo identity provider's page (demo mode only, labelled): the player picks what the
 * check finds, so the whole flow runs on a fresh machine. No document is asked for.
 */
const SESSION = /^demo_vs_[0-9a-f]{24}$/;
const choiceSchema = z.object({ choice: z.enum(Object.keys(DEMO_CHOICES) as [DemoChoice, ...DemoChoice[]]) });

function sessionIdOf(id: string | undefined): string {
  if (!getEnv().demoMode || !id || !SESSION.test(id)) throw new Response("Not Found", { status: 404 });
  return id;
}

/** Another player's check, or one already gone, is not found. */
async function ownCheck(userId: string, sessionId: string) {
  try {
    return await demoCheckOf(userId, sessionId);
  } catch (error) {
    if (error instanceof DomainError && error.code === "identity_check_not_found") throw new Response(error.message, { status: 404 });
    throw error;
  }
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const sessionId = sessionIdOf(params.id);
  await ownCheck(user.id, sessionId);
  return { sessionId, choices: Object.entries(DEMO_CHOICES).map(([value, label]) => ({ value, label })) };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const sessionId = sessionIdOf(params.id);
  const parsed = choiceSchema.safeParse(Object.fromEntries(await readForm(request)));
  if (!parsed.success) return Response.json({ message: "Choose what the demo check finds." }, { status: 400 });
  let status;
  try {
    status = await decideDemoCheck(user, sessionId, parsed.data.choice);
  } catch (error) {
    if (error instanceof DomainError && error.code === "identity_check_not_found") throw new Response(error.message, { status: 404 });
    throw error;
  }
  if (status === "under_age") {
    return redirectWithToast(
      "/",
      { type: "error", title: "Your account is closed", description: "The check showed you are under 18. Your card payments are refunded." },
      { headers: { "Set-Cookie": await endSession(request) } },
    );
  }
  await forgetCachedSession(request);
  return redirect("/verify", 303);
}

export default function DemoIdentityCheck() {
  const { choices } = useLoaderData<typeof loader>();
  return (
    <main className="mx-auto flex max-w-xl flex-col gap-6 px-4 py-10">
      <p role="note" className="rounded-md border-2 border-dashed border-amber-500 p-3 font-bold" data-testid="demo-identity-label">
        DEMO identity check: no document is asked for or sent anywhere. Pick what the check should find.
      </p>
      <h1 className="text-2xl font-black">Demo identity provider</h1>
      <Form method="post" className="flex flex-col gap-3">
        <fieldset className="flex flex-col gap-2">
          <legend className="font-semibold">The check finds</legend>
          {choices.map((c, i) => (
            <label key={c.value} className="flex items-center gap-2">
              <input type="radio" name="choice" value={c.value} defaultChecked={i === 0} required />
              {c.label}
            </label>
          ))}
        </fieldset>
        <button type="submit" className={buttonClass} data-testid="demo-identity-submit">
          Finish the check
        </button>
      </Form>
    </main>
  );
}

export const meta: MetaFunction = () => [{ title: "Demo identity check · Raffle Rush" }];

export function ErrorBoundary() {
  return <PageError title="This demo check is not available" back={{ to: "/verify", label: "Back to verification" }} />;
}
