import * as ToastPrimitive from "@radix-ui/react-toast";
import { createContext, useCallback, useContext, useState, type ReactNode } from "react";
import { WinCelebration } from "./big-win";
import { useHydrated } from "./use-hydrated";

import type { ToastMessage, ToastType } from "~/shared/toast";

export type { ToastMessage, ToastType } from "~/shared/toast";

/** The spec: one toast visible at a time, shown for 5 s unless dismissed. */
export const TOAST_DURATION_MS = 5000;

declare global {
  interface Window {
    /** Set only by a browser test whose subject is a toast, so it lasts until read (tests/e2e/support.ts). */
    __toastDurationMs?: number;
  }
}

const ShowToastContext = createContext<(toast: Omit<ToastMessage, "id">) => void>(() => {});

/** Shows a toast from the browser (after a fetcher returns); replaces the one on screen. */
export function useShowToast() {
  return useContext(ShowToastContext);
}

const HoldToastsContext = createContext<(held: boolean) => void>(() => {});

/**
 * Holds toasts back while a moment plays out (the wheel turning to its prize): the toast that
 * came with the answer waits, and its 5 s start, until the moment ends and the hold is let go.
 */
export function useHoldToasts() {
  return useContext(HoldToastsContext);
}

const tone: Record<ToastType, string> = {
  success: "border-emerald-500 bg-emerald-50 text-emerald-950 dark:bg-emerald-950 dark:text-emerald-50",
  error: "border-red-600 bg-red-50 text-red-950 dark:bg-red-950 dark:text-red-50",
  info: "border-line-strong bg-surface text-ink",
};
const boxClass = "relative w-full rounded-lg border-l-4 p-4 pr-12 shadow-lg";
// The list itself lets taps through (empty or not); on a phone it sits above the bottom bar (h-12 and its border).
const listClass = "pointer-events-none fixed right-0 bottom-13 z-50 m-0 flex w-full max-w-sm list-none flex-col gap-2 p-4 outline-none sm:bottom-0";

/**
 * Radix toasts once React runs. Before that (and with JavaScript off) the flash
 * toast from the server is rendered as plain HTML, since Radix renders toasts
 * into a portal that only exists in the browser.
 */
export function Toaster({ flash, children }: { flash: ToastMessage | null; children: ReactNode }) {
  const hydrated = useHydrated();
  const [current, setCurrent] = useState<ToastMessage | null>(flash);
  // A new flash toast (after a navigation) replaces whatever is on screen.
  const [lastFlashId, setLastFlashId] = useState(flash?.id);
  if (flash && flash.id !== lastFlashId) {
    setLastFlashId(flash.id);
    setCurrent(flash);
  }
  const dismiss = useCallback(() => setCurrent(null), []);
  const show = useCallback((toast: Omit<ToastMessage, "id">) => setCurrent({ ...toast, id: crypto.randomUUID() }), []);
  const [held, setHeld] = useState(false);
  const shown = held ? null : current;

  return (
    <ShowToastContext.Provider value={show}>
      <HoldToastsContext.Provider value={setHeld}>{children}</HoldToastsContext.Provider>
      {hydrated && shown?.celebrate ? <WinCelebration key={shown.id} win={shown} onClose={dismiss} /> : null}
      {hydrated ? (
        <ToastPrimitive.Provider duration={window.__toastDurationMs ?? TOAST_DURATION_MS} swipeDirection="right" swipeThreshold={50}>
          {shown && !shown.celebrate ? (
            <ToastPrimitive.Root
              key={shown.id}
              type={shown.type === "error" ? "foreground" : "background"}
              onOpenChange={(open) => {
                if (!open) setCurrent(null);
              }}
              className={`${boxClass} pointer-events-auto ${tone[shown.type]}`}
              data-testid="toast"
            >
              <ToastPrimitive.Title className="font-semibold">{shown.title}</ToastPrimitive.Title>
              {shown.description ? <ToastPrimitive.Description className="mt-1 text-sm">{shown.description}</ToastPrimitive.Description> : null}
              <ToastPrimitive.Close className="absolute top-0 right-0 inline-flex min-h-11 min-w-11 items-center justify-center text-lg" aria-label="Close">
                ×
              </ToastPrimitive.Close>
            </ToastPrimitive.Root>
          ) : null}
          <ToastPrimitive.Viewport hotkey={["F8"]} className={listClass} />
        </ToastPrimitive.Provider>
      ) : flash ? (
        // Without JavaScript nothing dismisses it: it lets clicks through to what it covers.
        <ol className={listClass}>
          <li role="status" className={`${boxClass} ${tone[flash.type]}`} data-testid="toast">
            <div className="font-semibold">{flash.title}</div>
            {flash.description ? <div className="mt-1 text-sm">{flash.description}</div> : null}
          </li>
        </ol>
      ) : null}
    </ShowToastContext.Provider>
  );
}
