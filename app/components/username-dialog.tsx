import { useFetcher } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { buttonClass, inputClass } from "./form-fields";
import { useShowToast } from "./toaster";
import { useHydrated } from "./use-hydrated";
import { USERNAME_HINT, USERNAME_MAX, validateUsername } from "~/shared/username";

/**
 * Forced open while the player has no username; it cannot be dismissed. A plain form
 * post without JavaScript; with it, a modal dialog that checks the spec's rules before a
 * fetcher sends the same form. Either way the answer is the page again with a toast.
 */
export function UsernameDialog() {
  const showToast = useShowToast();
  const hydrated = useHydrated();
  const create = useFetcher();
  const pending = create.state !== "idle";
  const [value, setValue] = useState("");
  const input = useRef<HTMLInputElement>(null);
  const dialog = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    // A modal dialog: focus stays inside and the page behind is inert. The server's HTML
    // has it open as a plain dialog; hydrating takes that `open` away, so it is opened
    // again, as a modal, once hydrated.
    if (hydrated && dialog.current && !dialog.current.open) dialog.current.showModal();
    input.current?.focus();
  }, [hydrated]);

  return (
    <dialog
      ref={dialog}
      open={hydrated ? undefined : true}
      aria-labelledby="username-title"
      // It cannot be dismissed: Escape does nothing until a username exists.
      onCancel={(event) => event.preventDefault()}
      className="fixed inset-0 z-40 m-auto w-full max-w-sm rounded-xl bg-surface p-6 text-ink shadow-xl backdrop:bg-night/70"
    >
      <h2 id="username-title" className="text-xl font-bold">
        Choose your username
      </h2>
      <p className="mt-1 text-sm text-ink-muted">Other players see it when you win.</p>
      {/* One answer with or without JavaScript: the page again, with the spec's toast. */}
      <create.Form
        method="post"
        action="/account/username"
        preventScrollReset
        className="mt-4 flex flex-col gap-2"
        onSubmit={(event) => {
          // The spec's rules are checked here first, with its toasts; the server checks them again.
          const result = validateUsername(value);
          if (!result.ok) {
            event.preventDefault();
            showToast({ type: "error", ...result.problem });
          }
        }}
      >
        <label htmlFor="username" className="text-sm font-semibold">
          Username
        </label>
        <input
          ref={input}
          id="username"
          name="username"
          maxLength={USERNAME_MAX}
          autoComplete="username"
          aria-describedby="username-hint"
          value={value}
          onChange={(event) => setValue(event.target.value)}
          className={inputClass}
        />
        <p id="username-hint" className="text-xs text-ink-muted">
          {USERNAME_HINT}
        </p>
        {/* Enabled for spaces, so that they get "Username Required"; without JavaScript the server checks the same rules. */}
        <button type="submit" className={buttonClass} disabled={pending || (hydrated && value === "")}>
          {pending ? "Creating..." : "Create Username"}
        </button>
      </create.Form>
    </dialog>
  );
}
