/**
 * The error a conform form renders beside a field, read from the page's HTML: the message
 * in `<… id="{fieldId}-error">`, and only when the control is marked `aria-invalid` and
 * points at that message with `aria-describedby` (what a screen reader announces).
 * Undefined when the field shows no error.
 */
export function fieldError(html: string, fieldId: string): string | undefined {
  const control = new RegExp(`<(?:input|select|textarea)\\b[^>]*\\bid="${fieldId}"[^>]*>`).exec(html)?.[0];
  const message = new RegExp(`<p\\b[^>]*\\bid="${fieldId}-error"[^>]*>([^<]*)</p>`).exec(html)?.[1];
  if (!control || message === undefined) return undefined;
  const describedBy = /aria-describedby="([^"]*)"/.exec(control)?.[1]?.split(" ") ?? [];
  if (!/aria-invalid="true"/.test(control) || !describedBy.includes(`${fieldId}-error`)) return undefined;
  return message.replaceAll("&#x27;", "'").replaceAll("&quot;", '"').replaceAll("&amp;", "&");
}

/** The messages of the form-level alerts on the page: conform's form errors, and a refused form's summary. */
export function formAlerts(html: string): string[] {
  const plain = [...html.matchAll(/<div role="alert"[^>]*>([^<]*)<\/div>/g)].map((m) => m[1]!);
  // The summary (components/error-summary.tsx): an item a message, some of them links to their field.
  const summary = /data-testid="form-error-summary"[\s\S]*?<\/ul>/.exec(html)?.[0] ?? "";
  const items = [...summary.matchAll(/<li>([\s\S]*?)<\/li>/g)].map((m) => m[1]!.replace(/<[^>]+>/g, ""));
  return [...plain, ...items].map((text) => text.replaceAll("&#x27;", "'"));
}
