import type { HeadersFunction } from "@remix-run/node";

/**
 * A route's `headers` that passes the named headers of its action's answer on to the page's
 * answer (a refusal's Retry-After, a cookie, no-store), which Remix otherwise drops.
 */
export function passActionHeaders(...names: string[]): HeadersFunction {
  return ({ actionHeaders }) => {
    const headers = new Headers();
    for (const name of names) {
      const value = actionHeaders.get(name);
      if (value) headers.set(name, value);
    }
    return headers;
  };
}
