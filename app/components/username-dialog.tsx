import { useFetcher } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { buttonClass, inputClass } from "./form-fields";
import { useShowToast } from "./toaster";
import { useHydrated } from "./use-hydrated";
import { USERNAME_HINT, USERNAME_MAX, validateUsername } from "~/services/username";

/**
 * Forced open while the player has no username; it cannot be dismissed. A plain form
 * post without JavaScript; with it, the spec's rules are checked before sending and
 * the answer comes back as a toast.
 */
export function UsernameDialog() {
  const fetcher = useFetcher<{ success?: boolean; message?: string }>();
  const showToast = useShowToast();
  const [value, setValue] = useState("");
  const input = useRef<HTMLInputElement>(null);
  const pending = fetcher.state !== "idle";
  const hydrated = useHydrated();

  useEffect(() => input.current?.focus(), []);
  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data) return;
    if (fetcher.data.success) showToast({ type: "success", title: "Username Created!", description: "Welcome to Raffle Rush!" });
    else {
      showToast({
        type: "error",
        title: "Username Error",
        description: fetcher.data.message ?? "That username is already taken. Try another one!",
      });
    }
  }, [fetcher.state, fetcher.data, showToast]);

  return (
    <div className="fixed inset-0 z-40 flex items-center justify-center bg-slate-950/70 p-4">
      <div role="dialog" aria-modal="true" aria-labelledby="username-title" className="w-full max-w-sm rounded-xl bg-white p-6 shadow-xl dark:bg-slate-900">
        <h2 id="username-title" className="text-xl font-bold">Choose your username</h2>
        <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">Other players see it when you win.</p>
        <fetcher.Form
          method="post"
          action="/api/auth/create-username"
          className="mt-4 flex flex-col gap-2"
          onSubmit={(event) => {
            const result = validateUsername(value);
            if (!result.ok) {
              event.preventDefault();
              showToast({ type: "error", ...result.problem });
            }
          }}
        >
          <label htmlFor="username" className="text-sm font-semibold">Username</label>
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
          <p id="username-hint" className="text-xs text-slate-600 dark:text-slate-400">{USERNAME_HINT}</p>
          {/* Without JavaScript the button stays enabled: the server checks the same rules. */}
          <button type="submit" className={buttonClass} disabled={pending || (hydrated && value.trim() === "")}>
            {pending ? "Creating..." : "Create Username"}
          </button>
        </fetcher.Form>
      </div>
    </div>
  );
}
