import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { buttonClass, Field, FormErrors, inputClass } from "~/components/form-fields";
import { ResidenceFields } from "~/components/residence-fields";
import { AccountError, completeOnboarding } from "~/services/accounts/sign-up.server";
import { needsOnboarding } from "~/services/accounts/sessions.server";
import { getSession, unauthorized } from "~/web/auth.server";
import { isoDayField } from "~/shared/date-fields";
import { getEnv } from "~/infra/env.server";
import { jurisdictionChoices, residenceFields } from "~/shared/jurisdictions";
import { safeRedirectPath } from "~/shared/safe-redirect";
import { readForm } from "~/web/http.server";
import { PageError } from "~/components/route-error";

const schema = z.object({
  dateOfBirth: isoDayField("Enter your date of birth"),
  ...residenceFields,
  acceptTerms: z.literal("on", { message: "Please accept the Terms of Service to continue." }),
});

/** After a first sign-in through an identity provider that did not vouch for age and Terms. */
async function pendingUser(request: Request) {
  const session = await getSession(request);
  if (!session) throw unauthorized(request);
  const returnTo = safeRedirectPath(new URL(request.url).searchParams.get("returnTo"));
  if (!needsOnboarding(session.user)) throw redirect(returnTo);
  return session.user;
}

export async function loader({ request }: LoaderFunctionArgs) {
  await pendingUser(request);
  return { residence: jurisdictionChoices(getEnv().ALLOWED_COUNTRIES) };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await pendingUser(request);
  const submission = parseWithZod(await readForm(request), { schema });
  if (submission.status !== "success") return Response.json(submission.reply(), { status: 400 });
  try {
    await completeOnboarding(user.id, { ...submission.value, acceptTerms: true });
  } catch (error) {
    if (error instanceof AccountError) {
      return Response.json(submission.reply({ fieldErrors: { [error.field ?? "dateOfBirth"]: [error.message] } }), { status: 400 });
    }
    throw error;
  }
  return redirect(safeRedirectPath(new URL(request.url).searchParams.get("returnTo")));
}

export default function Onboarding() {
  const { residence } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useForm({
    lastResult,
    constraint: getZodConstraint(schema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center gap-6 px-4">
      <h1 className="text-2xl font-bold">One more step</h1>
      <p>Raffle Rush is for adults only. Please confirm your date of birth and where you live, and accept the Terms.</p>
      <Form method="post" {...getFormProps(form)} className="flex flex-col gap-4">
        <FormErrors errors={form.errors} />
        <Field label="Date of birth" id={fields.dateOfBirth.id} errors={fields.dateOfBirth.errors}>
          <input {...getInputProps(fields.dateOfBirth, { type: "date" })} className={inputClass} />
        </Field>
        <ResidenceFields choices={residence} country={fields.country} region={fields.region} />
        <div className="flex items-start gap-3">
          <input {...getInputProps(fields.acceptTerms, { type: "checkbox" })} className="h-6 w-6 shrink-0" />
          <label htmlFor={fields.acceptTerms.id} className="text-sm">
            I am 18 or older and accept the{" "}
            <Link to="/terms" className="underline">
              Terms of Service
            </Link>
            .
          </label>
        </div>
        {fields.acceptTerms.errors?.length ? (
          <p role="alert" className="text-sm text-red-700">
            {fields.acceptTerms.errors.join(" ")}
          </p>
        ) : null}
        <button type="submit" className={buttonClass}>
          Continue
        </button>
      </Form>
    </main>
  );
}

export const meta: MetaFunction = () => [{ title: "Finish signing up — Raffle Rush" }];

export function ErrorBoundary() {
  return <PageError title="Signing up could not be finished" back={{ to: "/onboarding", label: "Back to the last step" }} />;
}
