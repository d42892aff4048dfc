import { getInputProps, useForm, type FieldMetadata, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import type { ReactNode } from "react";
import type { z } from "zod";

/**
 * conform's form for a zod schema: the browser checks the same schema as the server, and
 * the fields carry its constraints. Rechecked as the player types, so a server's error is
 * gone before the click (no layout shift under the pointer).
 */
export function useSchemaForm<S extends z.ZodType<Record<string, unknown>, Record<string, unknown>>>(
  id: string,
  schema: S,
  lastResult?: SubmissionResult<string[]> | null,
) {
  return useForm<z.input<S>, z.output<S>>({
    id,
    lastResult,
    constraint: getZodConstraint(schema),
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
}

/** A one-time code's field (an authenticator's, a recovery code or a mailed code), with its label, hint and errors. */
export function CodeField({ field, label, hint }: { field: FieldMetadata<string | undefined>; label: string; hint?: string }) {
  return (
    <Field label={label} id={field.id} errors={field.errors} hint={hint}>
      <input
        {...getInputProps(field, { type: "text", ariaDescribedBy: hint ? `${field.id}-hint` : undefined })}
        inputMode="numeric"
        autoComplete="one-time-code"
        required
        className={inputClass}
      />
    </Field>
  );
}

/** A labelled input with its errors announced to assistive technology. */
export function Field({ label, id, errors, hint, children }: { label: string; id: string; errors?: string[]; hint?: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-semibold">
        {label}
      </label>
      {children}
      {hint ? (
        <p id={`${id}-hint`} className="text-xs text-slate-600 dark:text-slate-400">
          {hint}
        </p>
      ) : null}
      {errors?.length ? (
        <p id={`${id}-error`} role="alert" className="text-sm text-red-700 dark:text-red-400">
          {errors.join(" ")}
        </p>
      ) : null}
    </div>
  );
}

export const inputClass =
  "rounded-md border border-slate-300 bg-white px-3 py-2 text-slate-900 focus-visible:outline-2 focus-visible:outline-brand-600 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100";

export const buttonClass =
  "inline-flex items-center justify-center rounded-md bg-brand-700 px-4 py-2 font-semibold text-white hover:bg-brand-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 disabled:opacity-50";

export function FormErrors({ errors }: { errors?: string[] }) {
  if (!errors?.length) return null;
  return (
    <div role="alert" className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200">
      {errors.join(" ")}
    </div>
  );
}
