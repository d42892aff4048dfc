import { getFormProps, getInputProps, getSelectProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form, useActionData } from "@remix-run/react";
import type { z } from "zod";
import { coinsToDecimal } from "~/shared/money";
import { BREAKS, EXCLUSIONS, REALITY_CHECK_CHOICES } from "~/shared/responsible-play-options";
import { exclusionFormSchema, limitFormSchema, realityCheckFormSchema } from "~/shared/responsible-play-schemas";
import { utcMinute } from "~/shared/dates";
import { buttonClass, FormErrors, inputClass } from "./form-fields";

/**
 * The action's `submission.reply()` when it answers this form (a 4xx: the page is rendered
 * again, with or without JavaScript), told apart by the form's hidden fields.
 */
function useReplyFor(matches: (value: Record<string, unknown>) => boolean): SubmissionResult | undefined {
  const reply = useActionData() as SubmissionResult | undefined;
  return reply?.initialValue && matches(reply.initialValue) ? reply : undefined;
}

/** A single-choice select's props: a value sent twice comes back as a list, which it cannot show. */
function selectProps(field: Parameters<typeof getSelectProps>[0]) {
  const props = getSelectProps(field);
  return { ...props, defaultValue: typeof props.defaultValue === "string" ? props.defaultValue : undefined };
}

function FieldErrors({ id, errors }: { id: string; errors?: string[] }) {
  return errors?.length ? (
    <p id={id} role="alert" className="w-full text-sm text-red-700 dark:text-red-400">
      {errors.join(" ")}
    </p>
  ) : null;
}

type Limit = {
  period: "day" | "week" | "month";
  label: string;
  limitCents: number | null;
  usedCents: number;
  pending: { amountCents: number | null; from: Date | string } | null;
};

/** One period's deposit limit: blank removes it; a bad amount is refused beside the field. */
export function LimitForm({ limit }: { limit: Limit }) {
  const lastResult = useReplyFor((v) => v.intent === "limit" && v.period === limit.period);
  const [form, fields] = useForm<z.input<typeof limitFormSchema>>({
    id: `limit-${limit.period}`,
    lastResult,
    defaultValue: { amount: limit.limitCents === null ? "" : coinsToDecimal(BigInt(limit.limitCents)) },
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: limitFormSchema }),
  });
  return (
    <Form method="post" {...getFormProps(form)} className="flex flex-wrap items-end gap-3" data-testid={`limit-${limit.period}`}>
      <input type="hidden" name="intent" value="limit" />
      <input type="hidden" name="period" value={limit.period} />
      <FormErrors errors={form.errors} />
      <label className="flex flex-col text-sm font-semibold">
        {limit.label} limit ($)
        <input {...getInputProps(fields.amount, { type: "text" })} inputMode="decimal" className={inputClass} />
      </label>
      <button type="submit" className={buttonClass}>
        Save
      </button>
      <span className="text-sm">
        Used, payments in progress included: ${coinsToDecimal(BigInt(limit.usedCents))}
        {limit.pending
          ? ` · pending: ${limit.pending.amountCents === null ? "no limit" : `$${coinsToDecimal(BigInt(limit.pending.amountCents))}`} from ${utcMinute(limit.pending.from)}`
          : ""}
      </span>
      <FieldErrors id={fields.amount.errorId} errors={fields.amount.errors} />
    </Form>
  );
}

export function RealityCheckForm({ minutes }: { minutes: number | null }) {
  const lastResult = useReplyFor((v) => v.intent === "reality");
  const [form, fields] = useForm<z.input<typeof realityCheckFormSchema>>({
    id: "reality-check",
    lastResult,
    defaultValue: { minutes: minutes === null ? "off" : (String(minutes) as "15" | "30" | "60") },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: realityCheckFormSchema }),
  });
  return (
    <Form method="post" {...getFormProps(form)} className="flex flex-wrap items-end gap-3">
      <input type="hidden" name="intent" value="reality" />
      <FormErrors errors={form.errors} />
      <label className="flex flex-col text-sm font-semibold">
        Remind me every
        <select {...selectProps(fields.minutes)} className={inputClass} data-testid="reality-minutes">
          <option value="off">Off</option>
          {REALITY_CHECK_CHOICES.map((m) => (
            <option key={m} value={m}>
              {m} minutes
            </option>
          ))}
        </select>
      </label>
      <button type="submit" className={buttonClass}>
        Save
      </button>
      <FieldErrors id={fields.minutes.errorId} errors={fields.minutes.errors} />
    </Form>
  );
}

/** A break or self-exclusion: it cannot be undone early, so the player ticks a box first. */
export function ExclusionForm() {
  const lastResult = useReplyFor((v) => v.intent === "exclude");
  const [form, fields] = useForm<z.input<typeof exclusionFormSchema>>({
    id: "exclusion",
    lastResult,
    defaultValue: { choice: "24h" },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: exclusionFormSchema }),
  });
  return (
    <Form method="post" {...getFormProps(form)} className="flex flex-wrap items-end gap-3">
      <input type="hidden" name="intent" value="exclude" />
      <FormErrors errors={form.errors} />
      <label className="flex flex-col text-sm font-semibold">
        Period
        <select {...selectProps(fields.choice)} className={inputClass}>
          {Object.keys(BREAKS).map((k) => (
            <option key={k} value={k}>
              Break: {k}
            </option>
          ))}
          {Object.keys(EXCLUSIONS).map((k) => (
            <option key={k} value={k}>
              Self-exclusion: {k}
            </option>
          ))}
        </select>
      </label>
      <label className="flex items-center gap-2 text-sm">
        <input {...getInputProps(fields.confirm, { type: "checkbox" })} /> I understand this cannot be undone early
      </label>
      <button type="submit" className={buttonClass}>
        Start
      </button>
      <FieldErrors id={fields.confirm.errorId} errors={fields.confirm.errors} />
    </Form>
  );
}
