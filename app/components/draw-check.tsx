import { CircleCheck, CircleX } from "lucide-react";
import { useEffect, useState } from "react";
import verifierSource from "~/shared/draw-verifier.mjs?raw";
import { verifyDraw } from "~/shared/draw-verifier.mjs";
import { useHydrated } from "./use-hydrated";

type Verdict = Awaited<ReturnType<typeof verifyDraw>>;
type State = { kind: "checking" } | { kind: "done"; verdict: Verdict } | { kind: "failed"; message: string };

/**
 * Checks the draw in the player's browser: fetches the public JSON (the file offered for
 * download) and recomputes it with app/shared/draw-verifier.mjs (the beacon's signature
 * included, with @noble/curves), no server help. Without JavaScript it says how to run the same check by hand.
 */
export function DrawCheck({ raffleId }: { raffleId: string }) {
  const hydrated = useHydrated();
  const [state, setState] = useState<State>({ kind: "checking" });
  useEffect(() => {
    let live = true;
    fetch(`/api/fair/${raffleId}`, { headers: { Accept: "application/json" }, credentials: "omit" })
      .then(async (response) => {
        if (!response.ok) throw new Error(`the record could not be fetched (HTTP ${response.status})`);
        return verifyDraw(await response.json());
      })
      .then((verdict) => live && setState({ kind: "done", verdict }))
      .catch((error: unknown) => live && setState({ kind: "failed", message: error instanceof Error ? error.message : String(error) }));
    return () => {
      live = false;
    };
  }, [raffleId]);

  return (
    <section aria-labelledby="check-title" className="mt-8 flex flex-col gap-3">
      <h2 id="check-title" className="text-xl font-bold">
        Check this draw yourself
      </h2>
      <div role="status" aria-live="polite" data-testid="verification-result">
        {!hydrated ? (
          <p>
            Your browser has not checked this draw (JavaScript is off). Download the{" "}
            <a className="underline" href={`/api/fair/${raffleId}`}>
              public JSON
            </a>{" "}
            and the{" "}
            <a className="underline" href="/fair/draw-verifier.mjs" download>
              verifier
            </a>
            , then run the check below with Node.js 20 or newer (after <code>npm install @noble/curves@2 @noble/hashes@2</code>).
          </p>
        ) : state.kind === "checking" ? (
          <p>Checking the draw in your browser…</p>
        ) : state.kind === "failed" ? (
          <p className="font-bold text-red-800 dark:text-red-300">Could not check the draw: {state.message}.</p>
        ) : (
          <Outcome verdict={state.verdict} />
        )}
      </div>
      <Verifier raffleId={raffleId} />
    </section>
  );
}

function Outcome({ verdict }: { verdict: Verdict }) {
  if (!verdict.drawn) return <p>{verdict.reason}</p>;
  return (
    <div className={`rounded-lg border-2 p-3 ${verdict.verified ? "border-emerald-700" : "border-red-700"}`}>
      <p className={`flex gap-2 text-lg font-black ${verdict.verified ? "text-win" : "text-danger"}`}>
        {verdict.verified ? (
          <CircleCheck aria-hidden="true" className="mt-1 size-5 shrink-0" />
        ) : (
          <CircleX aria-hidden="true" className="mt-1 size-5 shrink-0" />
        )}
        {verdict.verified
          ? `Verified in your browser: ticket #${verdict.winningTicket} won, as published.`
          : "This draw does not verify: the published record does not add up."}
      </p>
      {verdict.reason ? <p>{verdict.reason}</p> : null}
      <ul className="mt-2 text-sm">
        {verdict.checks.map((check) => (
          <li key={check.name}>
            {/* The icon shows the result; the words say it to a screen reader. */}
            {check.ok ? (
              <CircleCheck aria-hidden="true" className="mr-1 inline size-4 align-[-3px] text-win" />
            ) : (
              <CircleX aria-hidden="true" className="mr-1 inline size-4 align-[-3px] text-danger" />
            )}
            <span className="sr-only">{check.ok ? "Passed: " : "Failed: "}</span>
            {check.label}
            {check.ok ? null : (
              <span className="block font-mono break-all">
                published {check.expected}, recomputed {check.actual}
              </span>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

function Verifier({ raffleId }: { raffleId: string }) {
  const hydrated = useHydrated();
  const [copied, setCopied] = useState(false);
  const origin = hydrated ? window.location.origin : "";
  const usage = [
    "// check.mjs, next to draw-verifier.mjs; run: npm install @noble/curves@2 @noble/hashes@2 && node check.mjs  (Node.js 20 or newer)",
    'import { verifyDraw } from "./draw-verifier.mjs";',
    `const draw = await (await fetch("${origin || "https://<this site>"}/api/fair/${raffleId}")).json();`,
    "console.log(await verifyDraw(draw));",
  ].join("\n");
  return (
    <details className="rounded-lg border border-line p-3">
      <summary className="cursor-pointer font-semibold">The verifier’s code (the same file this page runs)</summary>
      <p className="mt-2 text-sm">
        Save it as <code>draw-verifier.mjs</code> (or{" "}
        <a className="underline" href="/fair/draw-verifier.mjs" download>
          download it
        </a>
        ), then run:
      </p>
      <pre className="mt-2 overflow-x-auto rounded bg-sunken p-2 text-xs">
        <code>{usage}</code>
      </pre>
      {hydrated ? (
        <button
          type="button"
          className="mt-2 rounded-md bg-accent px-3 py-1 font-bold text-on-accent"
          onClick={() => void navigator.clipboard.writeText(verifierSource).then(() => setCopied(true))}
        >
          {copied ? "Copied" : "Copy the verifier"}
        </button>
      ) : null}
      <pre className="mt-2 max-h-96 overflow-auto rounded bg-sunken p-2 text-xs" data-testid="verifier-source">
        <code>{verifierSource}</code>
      </pre>
    </details>
  );
}
