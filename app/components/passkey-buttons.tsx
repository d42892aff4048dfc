import { useRevalidator } from "@remix-run/react";
import { browserSupportsWebAuthn, startAuthentication, startRegistration } from "@simplewebauthn/browser";
import { useId, useState } from "react";
import { buttonClass, inputClass } from "./form-fields";
import { useShowToast } from "./toaster";
import { useHydrated } from "./use-hydrated";

/** Passkeys need the browser's WebAuthn API: without JavaScript the controls say so instead. */
export const PASSKEYS_NEED_JAVASCRIPT = "Passkeys need JavaScript in this browser. Your password works as always.";

async function postJson<T>(url: string, body: unknown): Promise<T> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify(body),
    credentials: "same-origin",
  });
  const json = (await response.json().catch(() => ({}))) as T & { message?: string };
  if (!response.ok) throw new Error(json.message ?? "Something went wrong. Please try again.");
  return json;
}

/** The browser's own refusals (the prompt closed, timed out, or the key is known) as one sentence. */
function problemOf(error: unknown): string {
  if (error instanceof Error && (error.name === "NotAllowedError" || error.name === "AbortError")) return "The passkey prompt was closed or timed out.";
  if (error instanceof Error && error.name === "InvalidStateError") return "This device already holds a passkey for your account.";
  return error instanceof Error ? error.message : "Something went wrong. Please try again.";
}

function Problem({ text }: { text: string | null }) {
  return text ? (
    <p role="alert" className="text-sm text-red-700 dark:text-red-400">
      {text}
    </p>
  ) : null;
}

/** "Sign in with a passkey" on the sign-in page: no email or password asked. */
export function PasskeySignIn({ returnTo }: { returnTo: string }) {
  const hydrated = useHydrated();
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (!hydrated) return <p className="text-sm text-ink-muted">{PASSKEYS_NEED_JAVASCRIPT}</p>;
  if (!browserSupportsWebAuthn()) return null;
  const signIn = async () => {
    setBusy(true);
    setProblem(null);
    try {
      const { challengeId, options } = await postJson<{ challengeId: string; options: Parameters<typeof startAuthentication>[0]["optionsJSON"] }>(
        "/passkeys/sign-in",
        { intent: "options" },
      );
      const response = await startAuthentication({ optionsJSON: options });
      const { redirectTo } = await postJson<{ redirectTo: string }>("/passkeys/sign-in", { intent: "verify", challengeId, response, returnTo });
      window.location.assign(redirectTo);
    } catch (error) {
      setProblem(problemOf(error));
      setBusy(false);
    }
  };
  return (
    <div className="flex flex-col gap-2">
      <button type="button" onClick={() => void signIn()} disabled={busy} className={`${buttonClass} bg-slate-700`}>
        {busy ? "Waiting for your passkey…" : "Sign in with a passkey"}
      </button>
      <Problem text={problem} />
    </div>
  );
}

/** Adds a passkey, named by the player, to the signed-in account. */
export function AddPasskey() {
  const hydrated = useHydrated();
  const showToast = useShowToast();
  const { revalidate } = useRevalidator();
  const id = useId();
  const [name, setName] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (!hydrated) return <p className="text-sm">{PASSKEYS_NEED_JAVASCRIPT}</p>;
  if (!browserSupportsWebAuthn()) return <p className="text-sm">This browser cannot use passkeys.</p>;
  const add = async () => {
    setBusy(true);
    setProblem(null);
    try {
      const { challengeId, options } = await postJson<{ challengeId: string; options: Parameters<typeof startRegistration>[0]["optionsJSON"] }>(
        "/passkeys/register",
        { intent: "options" },
      );
      const response = await startRegistration({ optionsJSON: options });
      const { passkey } = await postJson<{ passkey: { name: string } }>("/passkeys/register", { intent: "register", challengeId, name, response });
      setName("");
      showToast({ type: "success", title: "Passkey added", description: `"${passkey.name}" signs you in from now on.` });
      revalidate();
    } catch (error) {
      setProblem(problemOf(error));
    }
    setBusy(false);
  };
  return (
    <form
      className="flex flex-col gap-2"
      onSubmit={(event) => {
        event.preventDefault();
        void add();
      }}
    >
      <label htmlFor={`${id}-name`} className="text-sm font-semibold">
        Passkey name
      </label>
      <input id={`${id}-name`} value={name} onChange={(e) => setName(e.target.value)} maxLength={60} placeholder="My phone" className={inputClass} />
      <button type="submit" disabled={busy} className={buttonClass}>
        {busy ? "Waiting for your device…" : "Add a passkey"}
      </button>
      <Problem text={problem} />
    </form>
  );
}
