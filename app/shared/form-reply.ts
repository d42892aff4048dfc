/**
 * Pages with several forms posting to one action (`intent` tells them apart) give each
 * form only the conform reply to it; an answer to a form the page no longer shows (another
 * step, a stale tab) is shown above them, so no refusal goes unseen.
 */
export function replyIntent(reply: unknown): string | undefined {
  const intent = (reply as { initialValue?: { intent?: unknown } } | undefined)?.initialValue?.intent;
  return typeof intent === "string" ? intent : undefined;
}

/** Every message of a reply to none of the `shown` forms' intents. */
export function unshownErrors(reply: unknown, shown: string[]): string[] {
  const intent = replyIntent(reply);
  if (!reply || (intent !== undefined && shown.includes(intent))) return [];
  const error = (reply as { error?: Record<string, string[] | null> }).error ?? {};
  return Object.values(error).flatMap((messages) => messages ?? []);
}
