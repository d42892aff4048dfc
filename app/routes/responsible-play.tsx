import type { Submission } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import type { z } from "zod";
import { ExclusionForm, LimitForm, RealityCheckForm } from "~/components/responsible-play-forms";
import { getOptionalUser, requireUser } from "~/web/auth.server";
import { DomainError } from "~/shared/domain-error";
import { expectedFailure, readForm } from "~/web/http.server";
import { counted } from "~/shared/raffle-display";
import { limitCents, limitsFromFields, type ExclusionChoice, type RealityCheckMinutes } from "~/shared/responsible-play-options";
import { responsiblePlaySchema } from "~/shared/responsible-play-schemas";
import { setRealityCheck } from "~/services/play-safety/reality-check.server";
import { safeRedirectPath } from "~/shared/safe-redirect";
import { depositLimits, excludeSelf, exclusionStatus, setDepositLimit, type LimitPeriod } from "~/services/play-safety/responsible-play.server";
import { redirectWithToast, type NewToast } from "~/web/toast.server";
import { utcMinute } from "~/shared/dates";
import { PageError } from "~/components/route-error";
import { BackHome } from "~/components/legal-page";

type Parsed = Submission<z.input<typeof responsiblePlaySchema>, string[], z.output<typeof responsiblePlaySchema>>;

/** Public help; signed-in players also set limits, take a break or exclude themselves here. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getOptionalUser(request);
  if (!user) return { signedIn: false as const };
  const [limits, exclusion] = await Promise.all([depositLimits(user.id), exclusionStatus(user.id)]);
  return { signedIn: true as const, limits, exclusion, realityCheckMinutes: user.realityCheckMinutes };
}

/**
 * This page's forms (a limit, the reality check, a break) answer a refusal with
 * `submission.reply()` and a 4xx, shown beside the field (or atop the form for the
 * service's refusal); a saved one goes back to the page with a toast. The first-purchase
 * offer posts from the checkout page, so its outcome goes back there as a toast.
 */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const submission = parseWithZod(await readForm(request), { schema: responsiblePlaySchema });
  if (submission.payload.intent === "limits") return saveOfferedLimits(user.id, submission);
  if (submission.status !== "success") return Response.json(submission.reply(), { status: 400 });
  try {
    return redirectWithToast("/responsible-play", await save(user.id, submission.value));
  } catch (error) {
    const failure = expectedFailure(error);
    if (!failure) throw error;
    return Response.json(submission.reply({ formErrors: [failure.message] }), { status: failure.status });
  }
}

async function save(userId: string, input: z.output<typeof responsiblePlaySchema>): Promise<NewToast> {
  if (input.intent === "reality") {
    const minutes = input.minutes === "off" ? null : (Number(input.minutes) as RealityCheckMinutes);
    await setRealityCheck(userId, minutes);
    return {
      type: "success",
      title: "Reality check saved",
      description: minutes ? `We will remind you every ${minutes} minutes of play.` : "Reality check reminders are off.",
    };
  }
  if (input.intent === "limit") {
    // Blank removes the limit; the schema refused anything else that is not an amount.
    const cents = input.amount ? limitCents(input.amount)! : null;
    const result = await setDepositLimit(userId, input.period as LimitPeriod, cents);
    return {
      type: "success",
      title: "Deposit limit saved",
      description: result.immediate
        ? "Your new limit applies now."
        : `Raising or removing a limit takes effect after 24 hours, at ${utcMinute(result.effectiveFrom)}.`,
    };
  }
  if (input.intent === "exclude") {
    const { until, refunded } = await excludeSelf(userId, input.choice as ExclusionChoice);
    return {
      type: "success",
      title: "Your break has started",
      description: `Play and purchases are paused until ${utcMinute(until)}.${refunded ? ` ${counted(refunded, "open ticket was", "open tickets were")} refunded.` : ""}`,
    };
  }
  throw new DomainError("invalid_input", "Choose what to save");
}

/** The checkout page's offer: the limits given are set, blank ones left alone; back there with a toast. */
async function saveOfferedLimits(userId: string, submission: Parsed): Promise<Response> {
  const returnTo = submission.payload.returnTo;
  const back = safeRedirectPath(typeof returnTo === "string" ? returnTo : null, "/responsible-play");
  const notSaved = (description: string) => redirectWithToast(back, { type: "error", title: "Not saved", description });
  if (submission.status !== "success") return notSaved(Object.values(submission.error ?? {}).flat()[0] ?? "Check the limits and try again");
  if (submission.value.intent !== "limits") return notSaved("Check the limits and try again");
  const limits = Object.entries(limitsFromFields(submission.value));
  if (limits.length === 0) return notSaved("Enter at least one limit, or go ahead without one");
  try {
    for (const [period, cents] of limits) await setDepositLimit(userId, period as LimitPeriod, cents);
  } catch (error) {
    const failure = expectedFailure(error);
    if (!failure) throw error;
    return notSaved(failure.message);
  }
  return redirectWithToast(back, { type: "success", title: "Deposit limits saved", description: "Your limits apply now." });
}

export default function ResponsiblePlay() {
  const data = useLoaderData<typeof loader>();
  return (
    <main className="mx-auto flex max-w-3xl flex-col gap-6 px-4 py-10">
      <BackHome />
      <h1 className="text-3xl font-black">Responsible play</h1>
      <p>
        Raffles are entertainment, not a way to make money. Set limits before you play, take a break when you need one, and talk to someone if play stops being
        fun.
      </p>
      <section aria-labelledby="help-title" className="rounded-xl border border-line p-4" data-testid="help">
        <h2 id="help-title" className="text-xl font-bold">
          Free, confidential help
        </h2>
        <ul className="mt-2 flex list-disc flex-col gap-1 pl-5 text-sm">
          <li>
            UK:{" "}
            <a href="https://www.gamcare.org.uk/" className="underline" rel="noopener noreferrer">
              GamCare
            </a>
            , National Gambling Helpline{" "}
            <a href="tel:08088020133" className="underline">
              0808 8020 133
            </a>
            , and{" "}
            <a href="https://www.begambleaware.org/" className="underline" rel="noopener noreferrer">
              BeGambleAware
            </a>
          </li>
          <li>
            US:{" "}
            <a href="https://www.ncpgambling.org/" className="underline" rel="noopener noreferrer">
              National Council on Problem Gambling
            </a>
            ,{" "}
            <a href="tel:18004264537" className="underline">
              1-800-GAMBLER
            </a>{" "}
            (call or text, 24/7)
          </li>
          <li>
            Ireland:{" "}
            <a href="https://www.gamblingcare.ie/" className="underline" rel="noopener noreferrer">
              GamblingCare.ie
            </a>
            ; Malta:{" "}
            <a href="https://www.rgf.org.mt/" className="underline" rel="noopener noreferrer">
              Responsible Gaming Foundation
            </a>
            ; Ontario:{" "}
            <a href="https://www.connexontario.ca/" className="underline" rel="noopener noreferrer">
              ConnexOntario
            </a>
          </li>
        </ul>
      </section>
      {!data.signedIn ? (
        <p>
          <Link to="/api/login?returnTo=%2Fresponsible-play" className="underline">
            Sign in
          </Link>{" "}
          to set deposit limits or take a break.
        </p>
      ) : (
        <>
          {data.exclusion ? (
            <p role="status" className="rounded border-2 border-amber-500 p-3" data-testid="exclusion-status">
              {data.exclusion.kind === "self_exclusion" ? "Self-excluded" : "On a break"} until {utcMinute(data.exclusion.until)}. You can still see your
              balance and withdraw.
            </p>
          ) : null}
          <section aria-labelledby="limits-title" className="flex flex-col gap-3">
            <h2 id="limits-title" className="text-xl font-bold">
              Deposit limits
            </h2>
            <p className="text-sm">Lowering a limit applies at once; raising or removing one takes effect after 24 hours.</p>
            {/* Keyed by the limit in force, so a saved one shows as stored. */}
            {data.limits.map((l) => (
              <LimitForm key={`${l.period}:${l.limitCents}`} limit={l} />
            ))}
          </section>
          <section aria-labelledby="reality-title" className="flex flex-col gap-3">
            <h2 id="reality-title" className="text-xl font-bold">
              Reality check
            </h2>
            <p className="text-sm">
              A reminder every so often while you play, with how long you have played and your net result. The time you have been playing is always shown in the
              top bar.
            </p>
            <RealityCheckForm minutes={data.realityCheckMinutes} />
          </section>
          <section aria-labelledby="break-title" className="flex flex-col gap-3">
            <h2 id="break-title" className="text-xl font-bold">
              Take a break or exclude yourself
            </h2>
            <p className="text-sm">
              During a break or exclusion you cannot enter raffles, spin, claim bonuses or buy coins or VIP; open tickets are refunded at once. It cannot be
              shortened.
            </p>
            <ExclusionForm />
          </section>
          <p className="text-sm">
            <Link to="/history" className="inline-flex min-h-6 items-center underline">
              See your full history
            </Link>
          </p>
        </>
      )}
    </main>
  );
}

export const meta: MetaFunction = () => [{ title: "Responsible play — Raffle Rush" }];

export function ErrorBoundary() {
  return <PageError title="Responsible play could not be shown" />;
}
