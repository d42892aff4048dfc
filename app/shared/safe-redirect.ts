/**
 * Only same-site relative paths are followed after a form or sign-in: anything
 * else (absolute URLs, protocol-relative "//host", backslash tricks) falls back.
 */
export function safeRedirectPath(to: FormDataEntryValue | string | null | undefined, fallback = "/"): string {
  if (typeof to !== "string" || to.length === 0 || to.length > 2000) return fallback;
  if (!to.startsWith("/") || to.startsWith("//") || to.startsWith("/\\")) return fallback;
  // Control characters (tabs, newlines) are stripped by browsers and could turn "/\t/evil" into "//evil".
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  if (/[\u0000-\u001f\u007f\\]/.test(to)) return fallback;
  // A Location header carries bytes: any other character goes percent-encoded, as a browser
  // would send it (a half of a surrogate pair has no encoding).
  try {
    return to.replace(/[^\u0020-\u007e]/gu, encodeURIComponent);
  } catch {
    return fallback;
  }
}
