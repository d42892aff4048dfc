import { Field, inputClass } from "./form-fields";

export const LIMIT_FIELDS = [
  { name: "limitDay", label: "24-hour limit ($)" },
  { name: "limitWeek", label: "7-day limit ($)" },
  { name: "limitMonth", label: "30-day limit ($)" },
] as const;

/** Optional deposit limits, offered at sign-up and before the first purchase; `values` as typed, on a refused form's page. */
export function DepositLimitFields({
  idPrefix,
  errors = {},
  values = {},
  focus,
}: {
  idPrefix: string;
  errors?: Partial<Record<string, string[]>>;
  values?: Partial<Record<string, unknown>>;
  /** The form's first field in error, focused when it is one of these. */
  focus?: string;
}) {
  return (
    <fieldset className="flex min-w-0 flex-col gap-3 rounded-md border border-line-strong p-3">
      <legend className="px-1 text-sm font-semibold">Deposit limits (optional)</legend>
      <p className="text-xs text-ink-muted">
        Cap what you can spend on coins. Leave blank for no limit; you can change them any time on the Responsible play page.
      </p>
      <div className="grid gap-3 sm:grid-cols-3 sm:gap-2">
        {LIMIT_FIELDS.map((f) => {
          const value = values[f.name];
          return (
            <Field key={f.name} label={f.label} id={`${idPrefix}-${f.name}`} errors={errors[f.name]}>
              <input
                {...(focus === f.name ? { autoFocus: true } : {})}
                id={`${idPrefix}-${f.name}`}
                name={f.name}
                defaultValue={typeof value === "string" ? value : undefined}
                inputMode="decimal"
                maxLength={12}
                aria-invalid={errors[f.name]?.length ? true : undefined}
                aria-describedby={errors[f.name]?.length ? `${idPrefix}-${f.name}-error` : undefined}
                className={`${inputClass} w-full`}
              />
            </Field>
          );
        })}
      </div>
    </fieldset>
  );
}
