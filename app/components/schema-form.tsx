import { getInputProps, useForm, type FieldMetadata, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import type { z } from "zod";
import { Field, inputClass } from "./form-fields";

// Apart from form-fields.tsx on purpose: conform and zod are bundled only into the pages whose
// forms check a schema in the browser, not into every page that uses a button class (the home
// page's JavaScript budget, held by tests/e2e/with-javascript/page-weight.spec.ts).

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
