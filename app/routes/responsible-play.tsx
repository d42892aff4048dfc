import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { buttonClass, inputClass } from "~/components/form-fields";
import { getOptionalUser, requireUser } from "~/services/auth.server";
import { DomainError } from "~/shared/domain-error";
import { expectedErrorMessage, readForm } from "~/infra/http.server";
import { counted } from "~/shared/raffle-display";
import { coinsToDecimal } from "~/shared/money";
import {
  BREAKS,
  depositLimitFields,
  EXCLUSIONS,
  LIMIT_HINT,
  limitCents,
  limitsFromFields,
  REALITY_CHECK_CHOICES,
  type ExclusionChoice,
  type RealityCheckMinutes,
} from "~/shared/responsible-play-options";
import { setRealityCheck } from "~/services/reality-check.server";
import { safeRedirectPath } from "~/shared/safe-redirect";
import { depositLimits, excludeSelf, exclusionStatus, setDepositLimit, type LimitPeriod } from "~/services/responsible-play.server";
import { redirectWithToast } from "~/infra/toast.server";
import { utcMinute } from "~/shared/dates";
import { PageError } from "~/components/route-error";

const schema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("limit"), period: z.enum(["day", "week", "month"]), amount: z.string().max(12).default("") }),
  // The first-purchase offer: the limits given are set, blank ones left alone.
  z.object({ intent: z.literal("limits"), returnTo: z.string().optional(), ...depositLimitFields }),
  z.object({ intent: z.literal("reality"), minutes: z.enum(["off", "15", "30", "60"], { message: "Choose off, 15, 30 or 60 minutes" }) }),
  z.object({ intent: z.literal("exclude"), choice: z.enum(["24h", "7d", "30d", "6m", "1y", "5y"]), confirm: z.literal("on", { message: "Please confirm" }) }),
]);

/** Public help; signed-in players also set limits, take a break or exclude themselves here. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getOptionalUser(request);
  if (!user) return { signedIn: false as const };
  const [limits, exclusion] = await Promise.all([depositLimits(user.id), exclusionStatus(user.id)]);
  return { signedIn: true as const, limits, exclusion, realityCheckMinutes: user.realityCheckMinutes };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const form = Object.fromEntries(await readForm(request));
  // Blank optional fields count as not given.
  const parsed = schema.safeParse(Object.fromEntries(Object.entries(form).filter(([, value]) => value !== "" || form.intent === "limit")));
  const back = safeRedirectPath(typeof form.returnTo === "string" ? form.returnTo : null, "/responsible-play");
  if (!parsed.success) return redirectWithToast(back, { type: "error", title: "Not saved", description: parsed.error.issues[0]!.message });
  try {
    if (parsed.data.intent === "limits") {
      const limits = Object.entries(limitsFromFields(parsed.data));
      if (limits.length === 0) throw new DomainError("invalid_input", "Enter at least one limit, or go ahead without one");
      for (const [period, cents] of limits) await setDepositLimit(user.id, period as LimitPeriod, cents);
      return redirectWithToast(back, { type: "success", title: "Deposit limits saved", description: "Your limits apply now." });
    }
    if (parsed.data.intent === "reality") {
      const minutes = parsed.data.minutes === "off" ? null : (Number(parsed.data.minutes) as RealityCheckMinutes);
      await setRealityCheck(user.id, minutes);
      return redirectWithToast("/responsible-play", {
        type: "success",
        title: "Reality check saved",
        description: minutes ? `We will remind you every ${minutes} minutes of play.` : "Reality check reminders are off.",
      });
    }
    if (parsed.data.intent === "limit") {
      const text = parsed.data.amount.trim();
      const cents = text === "" ? null : limitCents(text);
      if (cents === undefined) throw new DomainError("invalid_input", LIMIT_HINT);
      const result = await setDepositLimit(user.id, parsed.data.period as LimitPeriod, cents);
      return redirectWithToast("/responsible-play", {
        type: "success",
        title: "Deposit limit saved",
        description: result.immediate ? "Your new limit applies now." : `Raising or removing a limit takes effect after 24 hours, at ${utcMinute(result.effectiveFrom)}.`,
      });
    }
    const { until, refunded } = await excludeSelf(user.id, parsed.data.choice as ExclusionChoice);
    return redirectWithToast("/responsible-play", {
      type: "success",
      title: "Your break has started",
      description: `Play and purchases are paused until ${utcMinute(until)}.${refunded ? ` ${counted(refunded, "open ticket was", "open tickets were")} refunded.` : ""}`,
    });
  } catch (error) {
    const message = expectedErrorMessage(error);
    if (message === undefined) throw error;
    return redirectWithToast(back, { type: "error", title: "Not saved", description: message });
  }
}

export default function ResponsiblePlay() {
  const data = useLoaderData<typeof loader>();
  return (
    <main className="mx-auto flex max-w-3xl flex-col gap-6 px-4 py-10">
      <Link to="/" className="underline">← Back to Raffle Rush</Link>
      <h1 className="text-3xl font-black">Responsible play</h1>
      <p>Raffles are entertainment, not a way to make money. Set limits before you play, take a break when you need one, and talk to someone if play stops being fun.</p>
      <section aria-labelledby="help-title" className="rounded-xl border border-slate-200 p-4 dark:border-slate-800" data-testid="help">
        <h2 id="help-title" className="text-xl font-bold">Free, confidential help</h2>
        <ul className="mt-2 flex list-disc flex-col gap-1 pl-5 text-sm">
          <li>
            UK: <a href="https://www.gamcare.org.uk/" className="underline" rel="noopener noreferrer">GamCare</a>, National Gambling Helpline{" "}
            <a href="tel:08088020133" className="underline">0808 8020 133</a>, and{" "}
            <a href="https://www.begambleaware.org/" className="underline" rel="noopener noreferrer">BeGambleAware</a>
          </li>
          <li>
            US: <a href="https://www.ncpgambling.org/" className="underline" rel="noopener noreferrer">National Council on Problem Gambling</a>,{" "}
            <a href="tel:18004264537" className="underline">1-800-GAMBLER</a> (call or text, 24/7)
          </li>
          <li>
            Ireland: <a href="https://www.gamblingcare.ie/" className="underline" rel="noopener noreferrer">GamblingCare.ie</a>; Malta:{" "}
            <a href="https://www.rgf.org.mt/" className="underline" rel="noopener noreferrer">Responsible Gaming Foundation</a>; Ontario:{" "}
            <a href="https://www.connexontario.ca/" className="underline" rel="noopener noreferrer">ConnexOntario</a>
          </li>
        </ul>
      </section>
      {!data.signedIn ? (
        <p><Link to="/api/login?returnTo=%2Fresponsible-play" className="underline">Sign in</Link> to set deposit limits or take a break.</p>
      ) : (
        <>
          {data.exclusion ? (
            <p role="status" className="rounded border-2 border-amber-500 p-3" data-testid="exclusion-status">
              {data.exclusion.kind === "self_exclusion" ? "Self-excluded" : "On a break"} until {utcMinute(data.exclusion.until)}. You can still see your balance and withdraw.
            </p>
          ) : null}
          <section aria-labelledby="limits-title" className="flex flex-col gap-3">
            <h2 id="limits-title" className="text-xl font-bold">Deposit limits</h2>
            <p className="text-sm">Lowering a limit applies at once; raising or removing one takes effect after 24 hours.</p>
            {data.limits.map((l) => (
              <Form key={l.period} method="post" className="flex flex-wrap items-end gap-3" data-testid={`limit-${l.period}`}>
                <input type="hidden" name="intent" value="limit" />
                <input type="hidden" name="period" value={l.period} />
                <label className="flex flex-col text-sm font-semibold">
                  {l.label} limit ($)
                  <input name="amount" inputMode="decimal" defaultValue={l.limitCents === null ? "" : coinsToDecimal(BigInt(l.limitCents))} className={inputClass} />
                </label>
                <button type="submit" className={buttonClass}>Save</button>
                <span className="text-sm">
                  Used, payments in progress included: ${coinsToDecimal(BigInt(l.usedCents))}
                  {l.pending ? ` · pending: ${l.pending.amountCents === null ? "no limit" : `$${coinsToDecimal(BigInt(l.pending.amountCents))}`} from ${utcMinute(l.pending.from)}` : ""}
                </span>
              </Form>
            ))}
          </section>
          <section aria-labelledby="reality-title" className="flex flex-col gap-3">
            <h2 id="reality-title" className="text-xl font-bold">Reality check</h2>
            <p className="text-sm">A reminder every so often while you play, with how long you have played and your net result. The time you have been playing is always shown in the top bar.</p>
            <Form method="post" className="flex flex-wrap items-end gap-3">
              <input type="hidden" name="intent" value="reality" />
              <label className="flex flex-col text-sm font-semibold">
                Remind me every
                <select name="minutes" className={inputClass} defaultValue={data.realityCheckMinutes ?? "off"} data-testid="reality-minutes">
                  <option value="off">Off</option>
                  {REALITY_CHECK_CHOICES.map((m) => <option key={m} value={m}>{m} minutes</option>)}
                </select>
              </label>
              <button type="submit" className={buttonClass}>Save</button>
            </Form>
          </section>
          <section aria-labelledby="break-title" className="flex flex-col gap-3">
            <h2 id="break-title" className="text-xl font-bold">Take a break or exclude yourself</h2>
            <p className="text-sm">During a break or exclusion you cannot enter raffles, spin, claim bonuses or buy coins or VIP; open tickets are refunded at once. It cannot be shortened.</p>
            <Form method="post" className="flex flex-wrap items-end gap-3">
              <input type="hidden" name="intent" value="exclude" />
              <label className="flex flex-col text-sm font-semibold">
                Period
                <select name="choice" className={inputClass} defaultValue="24h">
                  {Object.keys(BREAKS).map((k) => <option key={k} value={k}>Break: {k}</option>)}
                  {Object.keys(EXCLUSIONS).map((k) => <option key={k} value={k}>Self-exclusion: {k}</option>)}
                </select>
              </label>
              <label className="flex items-center gap-2 text-sm"><input type="checkbox" name="confirm" /> I understand this cannot be undone early</label>
              <button type="submit" className={buttonClass}>Start</button>
            </Form>
          </section>
          <p className="text-sm"><Link to="/history" className="inline-flex min-h-6 items-center underline">See your full history</Link></p>
        </>
      )}
    </main>
  );
}

export const meta: MetaFunction = () => [{ title: "Responsible play — Raffle Rush" }];

export function ErrorBoundary() {
  return <PageError title="Responsible play could not be shown" />;
}
