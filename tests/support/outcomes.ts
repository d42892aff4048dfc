import { DomainError } from "~/shared/domain-error";

/** What a call ended in: "ok", a domain error's code, or "unexpected: …" (a bug), for comparing many concurrent calls at once. */
export const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => "ok",
    (error: unknown) => (error instanceof DomainError ? error.code : `unexpected: ${String(error)}`),
  );
