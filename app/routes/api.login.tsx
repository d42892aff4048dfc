import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { z } from "zod";
import { DepositLimitFields } from "~/components/deposit-limit-fields";
import { PasskeySignIn } from "~/components/passkey-buttons";
import { buttonClass, Field, FormErrors, inputClass } from "~/components/form-fields";
import { ErrorSummary } from "~/components/error-summary";
import { useHydrated } from "~/components/use-hydrated";
import { ResidenceFields, type ResidenceChoices } from "~/components/residence-fields";
import { AccountError, signIn, signUp } from "~/services/accounts/sign-up.server";
import { getOptionalUser, startSession } from "~/web/auth.server";
import { isoDayField } from "~/shared/date-fields";
import { getEnv } from "~/infra/env.server";
import { knownDevice, rememberDevice } from "~/web/known-device.server";
import { jurisdictionChoices, residenceFields } from "~/shared/jurisdictions";
import { authenticateWithOidc, oidcEnabled } from "~/services/accounts/oidc.server";
import { relyingParty } from "~/services/accounts/passkeys.server";
import { PASSWORD_MAX, PASSWORD_MIN } from "~/shared/password-policy";
import { RateLimited } from "~/services/system/rate-limit.server";
import { limitsFromFields } from "~/shared/responsible-play-options";
import { depositLimitFields } from "~/shared/responsible-play-schemas";
import { rememberReturnTo } from "~/web/return-to.server";
import { safeRedirectPath } from "~/shared/safe-redirect";
import { readForm } from "~/web/http.server";
import { PageError } from "~/components/route-error";
import { Logo } from "~/components/logo";
import { needsSecondStep } from "~/services/accounts/two-step-sign-in.server";
import { pendingSignInCookie } from "~/web/pending-sign-in.server";
import { passActionHeaders } from "~/web/action-headers";

const email = z.string({ message: "Email is required" }).trim().email("Enter a valid email address").max(254);

const signInSchema = z.object({
  intent: z.literal("signin"),
  email,
  password: z.string({ message: "Password is required" }).max(PASSWORD_MAX),
  returnTo: z.string().optional(),
});

const signUpSchema = z.object({
  intent: z.literal("signup"),
  email,
  password: z.string({ message: "Password is required" }).min(PASSWORD_MIN, `Password must be at least ${PASSWORD_MIN} characters.`).max(PASSWORD_MAX),
  dateOfBirth: isoDayField("Enter your date of birth"),
  ...residenceFields,
  ...depositLimitFields,
  acceptTerms: z.literal("on", { message: "Please accept the Terms of Service to continue." }),
  returnTo: z.string().optional(),
});

const schema = z.discriminatedUnion("intent", [signInSchema, signUpSchema]);

export async function loader({ request }: LoaderFunctionArgs) {
  const returnTo = safeRedirectPath(new URL(request.url).searchParams.get("returnTo"));
  if (await getOptionalUser(request)) throw redirect(returnTo);
  if (oidcEnabled()) {
    try {
      await authenticateWithOidc(request);
    } catch (response) {
      // The redirect to the provider: remember where the player was going.
      if (response instanceof Response) throw await rememberReturnTo(response, returnTo);
      throw response;
    }
  }
  return { residence: jurisdictionChoices(getEnv().ALLOWED_COUNTRIES), passkeys: relyingParty(request) !== undefined };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await readForm(request);
  const submission = parseWithZod(formData, { schema });
  if (submission.status !== "success") return Response.json(submission.reply(), { status: 400 });
  const input = submission.value;
  try {
    const device = await knownDevice(request);
    const userId =
      input.intent === "signin"
        ? await signIn(input, { ip: context.clientIp, device })
        : await signUp({ ...input, acceptTerms: true, depositLimits: limitsFromFields(input) }, { ip: context.clientIp });
    // An account with a second factor signs in on a second step.
    if (input.intent === "signin" && (await needsSecondStep(userId))) {
      return redirect("/login/two-factor", { headers: { "Set-Cookie": await pendingSignInCookie(userId, input.returnTo) } });
    }
    const headers = new Headers();
    headers.append("Set-Cookie", await startSession(request, userId, { ip: context.clientIp }));
    headers.append("Set-Cookie", await rememberDevice(userId, device));
    return redirect(safeRedirectPath(input.returnTo), { headers });
  } catch (error) {
    if (error instanceof AccountError) {
      const reply = error.field
        ? submission.reply({ fieldErrors: { [error.field]: [error.message] }, hideFields: ["password"] })
        : submission.reply({ formErrors: [error.message], hideFields: ["password"] });
      return Response.json(reply, { status: error.status ?? (error.field === "email" && input.intent === "signup" ? 409 : 400) });
    }
    if (error instanceof RateLimited) {
      return Response.json(submission.reply({ formErrors: [error.message], hideFields: ["password"] }), {
        status: 429,
        headers: { "Retry-After": String(error.retryAfterSeconds) },
      });
    }
    throw error;
  }
}

function SignInForm({ returnTo }: { returnTo: string }) {
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  const mine = navigation.formData?.get("intent") === "signin";
  const [form, fields] = useForm({
    id: "signin",
    lastResult: (lastResult as { initialValue?: { intent?: string } } | undefined)?.initialValue?.intent === "signin" ? lastResult : undefined,
    constraint: getZodConstraint(signInSchema),
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: signInSchema }),
  });
  return (
    <Form method="post" {...getFormProps(form)} className="flex flex-col gap-4" aria-labelledby="signin-title">
      <h2 id="signin-title" className="text-xl font-bold">
        Sign in
      </h2>
      <input type="hidden" name="intent" value="signin" />
      <input type="hidden" name="returnTo" value={returnTo} />
      <FormErrors errors={form.errors} />
      <Field label="Email" id={fields.email.id} errors={fields.email.errors}>
        <input {...getInputProps(fields.email, { type: "email" })} autoComplete="email" className={inputClass} />
      </Field>
      <Field label="Password" id={fields.password.id} errors={fields.password.errors}>
        <input {...getInputProps(fields.password, { type: "password" })} autoComplete="current-password" className={inputClass} />
      </Field>
      <Link to="/forgot-password" className="inline-flex min-h-6 items-center self-start text-sm underline">
        Forgot password?
      </Link>
      <button type="submit" className={buttonClass} disabled={mine && navigation.state !== "idle"}>
        {mine && navigation.state !== "idle" ? "Signing in..." : "Sign in"}
      </button>
    </Form>
  );
}

/** The sign-up form's fields in the order they show: the first in error is focused. */
const SIGN_UP_ORDER = ["email", "password", "dateOfBirth", "country", "region", "limitDay", "limitWeek", "limitMonth", "acceptTerms"] as const;

function SignUpForm({ returnTo, residence }: { returnTo: string; residence: ResidenceChoices }) {
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  const mine = navigation.formData?.get("intent") === "signup";
  const hydrated = useHydrated();
  const refused = (lastResult as { initialValue?: { intent?: string } } | undefined)?.initialValue?.intent === "signup" ? lastResult : undefined;
  const [form, fields] = useForm({
    id: "signup",
    lastResult: refused,
    constraint: getZodConstraint(signUpSchema),
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: signUpSchema }),
  });
  // A refused sign-up comes back with what was typed, a summary at the top and its first field in
  // error focused, so on a phone the reason is on screen (issue 33). Without JavaScript the page is
  // new: the password is never sent back (the form says so) and the autofocus attribute focuses;
  // with it, the page stays (the password too) and conform focuses.
  const firstInvalid = SIGN_UP_ORDER.find((name) => fields[name].errors?.length);
  const focus = (name: (typeof SIGN_UP_ORDER)[number]) => (firstInvalid === name ? { autoFocus: true } : {});
  const labels: Record<string, string> = { acceptTerms: "Terms", limitDay: "24-hour limit", limitWeek: "7-day limit", limitMonth: "30-day limit" };
  const summary = [
    ...(form.errors ?? []).map((message) => ({ message })),
    ...SIGN_UP_ORDER.flatMap((name) =>
      (fields[name].errors ?? []).map((message) => ({ id: fields[name].id, message: labels[name] ? `${labels[name]}: ${message}` : message })),
    ),
  ];
  return (
    <Form method="post" {...getFormProps(form)} preventScrollReset className="flex flex-col gap-4" aria-labelledby="signup-title">
      <h2 id="signup-title" className="text-xl font-bold">
        Create an account
      </h2>
      <p className="text-sm text-ink-muted">Adults 18 and over only. One account per person.</p>
      <input type="hidden" name="intent" value="signup" />
      <input type="hidden" name="returnTo" value={returnTo} />
      <ErrorSummary errors={summary} focus={summary.length > 0 && !firstInvalid} />
      <Field label="Email" id={fields.email.id} errors={fields.email.errors}>
        <input {...getInputProps(fields.email, { type: "email" })} {...focus("email")} autoComplete="email" className={inputClass} />
      </Field>
      <Field
        label="Password"
        id={fields.password.id}
        errors={fields.password.errors}
        hint={
          refused && !hydrated ? `For your security, type your password again. At least ${PASSWORD_MIN} characters.` : `At least ${PASSWORD_MIN} characters.`
        }
      >
        <input {...getInputProps(fields.password, { type: "password" })} {...focus("password")} autoComplete="new-password" className={inputClass} />
      </Field>
      <Field label="Date of birth" id={fields.dateOfBirth.id} errors={fields.dateOfBirth.errors}>
        <input {...getInputProps(fields.dateOfBirth, { type: "date" })} {...focus("dateOfBirth")} autoComplete="bday" className={inputClass} />
      </Field>
      <ResidenceFields choices={residence} country={fields.country} region={fields.region} focus={firstInvalid} />
      <DepositLimitFields
        idPrefix="signup"
        errors={{ limitDay: fields.limitDay.errors, limitWeek: fields.limitWeek.errors, limitMonth: fields.limitMonth.errors }}
        values={{ limitDay: fields.limitDay.initialValue, limitWeek: fields.limitWeek.initialValue, limitMonth: fields.limitMonth.initialValue }}
        focus={firstInvalid}
      />
      <div className="flex flex-col gap-1">
        <div className="flex items-start gap-3">
          <input {...getInputProps(fields.acceptTerms, { type: "checkbox" })} {...focus("acceptTerms")} className="h-6 w-6 shrink-0" />
          <label htmlFor={fields.acceptTerms.id} className="text-sm">
            I am 18 or older and accept the{" "}
            <Link to="/terms" className="underline" target="_blank" rel="noreferrer">
              Terms of Service
            </Link>
            .
          </label>
        </div>
        {fields.acceptTerms.errors?.length ? (
          <p id={`${fields.acceptTerms.id}-error`} role="alert" className="text-sm text-red-700 dark:text-red-400">
            {fields.acceptTerms.errors.join(" ")}
          </p>
        ) : null}
      </div>
      <button type="submit" className={buttonClass} disabled={mine && navigation.state !== "idle"}>
        {mine && navigation.state !== "idle" ? "Creating account..." : "Create account"}
      </button>
    </Form>
  );
}

export default function Login() {
  const { residence, passkeys } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const returnTo = safeRedirectPath(params.get("returnTo"));
  return (
    <main className="mx-auto flex min-h-screen max-w-4xl flex-col gap-8 px-4 py-10">
      {/* The mark that heads every other page, named "Raffle Rush" as its link. */}
      <Link to="/" className="self-start">
        <Logo />
      </Link>
      {/* items-start: each card is as tall as its own form (the sign-in card does not stretch to the sign-up card's height). */}
      <div className="grid grid-cols-1 items-start gap-10 md:grid-cols-2">
        <section className="rounded-xl border border-line bg-surface p-6">
          <SignInForm returnTo={returnTo} />
          {passkeys ? (
            <div className="mt-4 border-t border-line pt-4">
              <PasskeySignIn returnTo={returnTo} />
            </div>
          ) : null}
        </section>
        <section className="rounded-xl border border-line bg-surface p-6">
          <SignUpForm returnTo={returnTo} residence={residence} />
        </section>
      </div>
    </main>
  );
}

export const meta: MetaFunction = () => [{ title: "Sign in — Raffle Rush" }];

/** A refused sign-in keeps its Retry-After on the rendered page. */
export const headers = passActionHeaders("Retry-After");

export function ErrorBoundary() {
  return <PageError title="Sign-in could not be shown" back={{ to: "/api/login", label: "Back to sign in" }} />;
}
