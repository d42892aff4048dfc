/**
 * A refused form's errors at its top, each field's a link to it (the GOV.UK pattern): on a
 * phone the page comes back with the first one focused, and the rest are one tap away.
 * Focused itself (`focus`) when no field is in error, so that the reason is on screen.
 */
export function ErrorSummary({ errors, focus = false }: { errors: { id?: string; message: string }[]; focus?: boolean }) {
  if (errors.length === 0) return null;
  return (
    <div
      role="alert"
      tabIndex={-1}
      // Without JavaScript only the autofocus attribute brings the page back to the form.
      {...(focus ? { autoFocus: true } : {})}
      data-testid="form-error-summary"
      className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200"
    >
      <p className="font-semibold">There is a problem</p>
      <ul className="mt-1 list-disc pl-5">
        {errors.map((error, i) => (
          <li key={i}>
            {error.id ? (
              <a href={`#${error.id}`} className="underline">
                {error.message}
              </a>
            ) : (
              error.message
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
