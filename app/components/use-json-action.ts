import { useRevalidator } from "@remix-run/react";
import { useCallback, useState } from "react";
import { useShowToast } from "./toaster";

/**
 * Submits a plain <form> with fetch when JavaScript runs, asking for JSON, and turns
 * the answer into the spec's toasts; without JavaScript the same form posts normally
 * and the server answers with a redirect and a flash toast. A 401 shows the spec's
 * "logged out" toast and goes to sign-in after 500 ms.
 */
export function useJsonAction<T = Record<string, unknown>>() {
  const revalidator = useRevalidator();
  const showToast = useShowToast();
  const [pending, setPending] = useState(false);

  const submit = useCallback(
    async (
      form: HTMLFormElement,
      {
        onSuccess,
        failureTitle,
        fallbackMessage,
      }: { onSuccess: (body: T) => void; failureTitle: string; fallbackMessage: string },
    ) => {
      setPending(true);
      try {
        const response = await fetch(form.action, {
          method: "POST",
          body: new FormData(form),
          headers: { Accept: "application/json" },
          credentials: "same-origin",
        });
        if (response.status === 401) {
          showToast({ type: "error", title: "Unauthorized", description: "You are logged out. Logging in again..." });
          setTimeout(() => window.location.assign("/api/login"), 500);
          return;
        }
        const body = (await response.json().catch(() => ({}))) as T & { message?: string };
        if (!response.ok) {
          showToast({ type: "error", title: failureTitle, description: body.message || fallbackMessage });
          return;
        }
        onSuccess(body);
        revalidator.revalidate();
      } catch {
        showToast({ type: "error", title: failureTitle, description: fallbackMessage });
      } finally {
        setPending(false);
      }
    },
    [revalidator, showToast],
  );

  return { submit, pending };
}
