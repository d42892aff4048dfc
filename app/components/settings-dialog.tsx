import { useFetcher, useLocation } from "@remix-run/react";
import { useEffect, useId, useRef, useState } from "react";
import { playOutcomeSound } from "./outcome-signals";
import { useShowToast } from "./toaster";
import { useHydrated } from "./use-hydrated";
import { longUtcDate } from "~/shared/dates";
import { SETTING_KEYS, SETTING_LABELS, type PlayerSettings } from "~/shared/player-settings";

type Account = { id: string; username: string | null; email: string; createdAt: string; vipTier: string; vipActive: boolean };
type SettingsProps = { account: Account; theme: "light" | "dark"; supportEmail: string; settings: PlayerSettings };

const section = "border-t border-line pt-3";
const button = "min-h-11 rounded-md border border-line-strong px-3 py-1";

/** The account's short facts, as Account Information shows them. */
export function accountInformation(account: Pick<Account, "id" | "createdAt">): string {
  return `Account ID: …${account.id.slice(-8)} · Member since ${longUtcDate(account.createdAt)}`;
}

/** Why there is no auto-enter (PRODUCT.md, "Telling players what happened"). */
export const NO_AUTO_ENTER = "Auto-enter is not offered: automatic play takes control away from you, and UK rules ban autoplay. Every entry is one you choose.";

const NOTIFICATIONS_BLOCKED = "Your browser blocks notifications from this site. Allow them in the browser's site settings, then turn this on again.";

/** Asks the browser for permission to notify; true when granted. */
async function notificationsAllowed(): Promise<boolean> {
  if (typeof Notification === "undefined") return false;
  if (Notification.permission === "granted") return true;
  if (Notification.permission === "denied") return false;
  return (await Notification.requestPermission()) === "granted";
}

/**
 * The settings' switches. Without JavaScript: checkboxes and a Save button, a plain form
 * post to /settings. With JavaScript each switch saves at once; turning quick raffle
 * notifications on first asks the browser's permission, and sound effects play a sample.
 */
function SettingSwitches({ settings }: { settings: PlayerSettings }) {
  const hydrated = useHydrated();
  const save = useFetcher();
  const [current, setCurrent] = useState(settings);
  // Once a save (and the page's reload after it) is done, the switches show what the server holds.
  const [served, setServed] = useState(settings);
  if (save.state === "idle" && served !== settings) {
    setServed(settings);
    setCurrent(settings);
  }
  const [problem, setProblem] = useState<string | null>(null);

  const change = async (key: keyof PlayerSettings, on: boolean) => {
    setProblem(null);
    if (key === "quickRaffleNotifications" && on && !(await notificationsAllowed())) {
      setProblem(NOTIFICATIONS_BLOCKED);
      return;
    }
    if (key === "soundEffects" && on) playOutcomeSound("draw");
    const next = { ...current, [key]: on };
    setCurrent(next);
    // The same action as the plain form: back to this page with the toast.
    save.submit(Object.fromEntries(Object.entries(next).map(([k, v]) => [k, String(v)])), { method: "post", action: "/settings", preventScrollReset: true });
  };

  return (
    <save.Form method="post" action="/settings" preventScrollReset className="flex flex-col gap-3" aria-label="Notifications and sound">
      {(["Notifications", "Audio & Effects"] as const).map((group) => (
        <section key={group} aria-label={group} className={section}>
          <h3 className="font-semibold">{group}</h3>
          {SETTING_KEYS.filter((key) => SETTING_LABELS[key].group === group).map((key) => (
            <label key={key} className="mt-1 flex min-h-11 items-center justify-between gap-3">
              <span>
                {SETTING_LABELS[key].label}
                <span className="block text-xs text-ink-muted">{SETTING_LABELS[key].hint}</span>
              </span>
              <input
                type="checkbox"
                role="switch"
                name={key}
                className="size-6 shrink-0"
                {...(hydrated ? { checked: current[key], onChange: (e) => void change(key, e.target.checked) } : { defaultChecked: settings[key] })}
              />
            </label>
          ))}
          {group === "Notifications" && problem ? (
            <p role="alert" className="text-sm text-red-700 dark:text-red-400">
              {problem}
            </p>
          ) : null}
        </section>
      ))}
      {hydrated ? null : (
        <p className="text-sm">
          <button type="submit" className={button}>
            Save settings
          </button>
          <span className="ml-2 text-ink-muted">Sounds and browser notifications need JavaScript in this browser.</span>
        </p>
      )}
    </save.Form>
  );
}

/** Everything the settings show, on the /settings page (no JavaScript) and in the dialog. */
export function SettingsContent({ account, theme, supportEmail, settings }: SettingsProps) {
  const hydrated = useHydrated();
  const showToast = useShowToast();
  const ids = useId();
  const themeFetcher = useFetcher();
  const location = useLocation();
  const [currentTheme, setCurrentTheme] = useState(theme);
  // The switch turns at once; the same action as the plain form sets the cookie and comes back.
  const setTheme = (next: "light" | "dark") => {
    document.documentElement.classList.toggle("dark", next === "dark");
    setCurrentTheme(next);
    themeFetcher.submit({ theme: next, redirectTo: `${location.pathname}${location.search}` }, { method: "post", action: "/theme", preventScrollReset: true });
  };
  const supportTexts = {
    "Contact Support": `Our ticket system is coming soon. Meanwhile, email us at ${supportEmail}.`,
    "Help Center": "Our help center documentation is coming soon.",
    "Account Information": accountInformation(account),
  };

  return (
    <div className="flex flex-col gap-3">
      <section aria-label="Account">
        <p className="font-semibold">{account.username ?? account.email}</p>
        <p className="text-sm text-ink-muted">
          {account.email} · VIP {account.vipActive ? account.vipTier : "bronze"}
        </p>
      </section>
      <section aria-labelledby={`${ids}-appearance`} className={section}>
        <h3 id={`${ids}-appearance`} className="font-semibold">
          Appearance
        </h3>
        {hydrated ? (
          <label className="mt-1 flex min-h-11 items-center justify-between">
            Dark mode
            <input
              type="checkbox"
              role="switch"
              className="size-6"
              checked={currentTheme === "dark"}
              onChange={(e) => setTheme(e.target.checked ? "dark" : "light")}
            />
          </label>
        ) : (
          <form method="post" action="/theme" className="mt-1 flex items-center justify-between">
            <input type="hidden" name="theme" value={theme === "dark" ? "light" : "dark"} />
            <input type="hidden" name="redirectTo" value="/settings" />
            <span>Dark mode: {theme === "dark" ? "on" : "off"}</span>
            <button type="submit" className={button}>
              Turn {theme === "dark" ? "off" : "on"}
            </button>
          </form>
        )}
      </section>
      <section aria-labelledby={`${ids}-security`} className={section}>
        <h3 id={`${ids}-security`} className="font-semibold">
          Sign-in &amp; security
        </h3>
        <div className="mt-1 flex flex-wrap gap-3 text-sm">
          <a href="/account/passkeys" className="inline-flex min-h-6 items-center underline">
            Passkeys
          </a>
          <a href="/account/email" className="inline-flex min-h-6 items-center underline">
            Change email
          </a>
        </div>
      </section>
      <SettingSwitches settings={settings} />
      <section aria-label="Gameplay" className={section}>
        <h3 className="font-semibold">Gameplay</h3>
        <p className="mt-1 text-sm" data-testid="no-auto-enter">
          {NO_AUTO_ENTER}
        </p>
      </section>
      <section aria-labelledby={`${ids}-support`} className={section}>
        <h3 id={`${ids}-support`} className="font-semibold">
          Support &amp; Help
        </h3>
        <div className="mt-1 flex flex-wrap gap-3 text-sm">
          <a href="/terms" target="_blank" rel="noreferrer" className="inline-flex min-h-6 items-center underline">
            Terms of Service
          </a>
          <a href="/privacy" target="_blank" rel="noreferrer" className="inline-flex min-h-6 items-center underline">
            Privacy Policy
          </a>
          <a href="/responsible-play" className="inline-flex min-h-6 items-center underline">
            Responsible play
          </a>
          <a href="/settings/two-factor" className="inline-flex min-h-6 items-center underline">
            Two-factor authentication
          </a>
          <a href="/complaints" className="inline-flex min-h-6 items-center underline">
            My complaints
          </a>
          <a href="/complaints/new" className="inline-flex min-h-6 items-center underline">
            File a complaint
          </a>
          <a href="/account/export" className="inline-flex min-h-6 items-center underline">
            Download my data
          </a>
          <a href="/account/close" className="inline-flex min-h-6 items-center underline">
            Close account
          </a>
        </div>
        {hydrated ? (
          <div className="mt-2 flex flex-wrap gap-2">
            {Object.entries(supportTexts).map(([title, description]) => (
              <button key={title} type="button" className={`${button} text-sm`} onClick={() => showToast({ type: "info", title, description })}>
                {title}
              </button>
            ))}
          </div>
        ) : (
          <dl className="mt-2 text-sm">
            {Object.entries(supportTexts).map(([title, description]) => (
              <div key={title}>
                <dt className="font-semibold">{title}</dt>
                <dd>{description}</dd>
              </div>
            ))}
          </dl>
        )}
      </section>
    </div>
  );
}

/**
 * The settings as a modal dialog (focus stays inside, Escape closes), with JavaScript;
 * without it the Settings link opens the /settings page instead.
 */
export function SettingsDialog({ open, onClose, ...props }: SettingsProps & { open: boolean; onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) element.showModal();
    if (!open && element.open) element.close();
  }, [open]);

  return (
    <dialog
      ref={dialog}
      onClose={onClose}
      aria-labelledby="settings-title"
      className="m-auto max-h-[90vh] w-full max-w-md overflow-y-auto rounded-xl bg-surface p-6 text-ink backdrop:bg-night/70"
    >
      <h2 id="settings-title" className="text-xl font-bold">
        Settings
      </h2>
      <div className="mt-4">{open ? <SettingsContent {...props} /> : null}</div>
      <button type="button" onClick={onClose} className="mt-6 min-h-11 w-full rounded-md bg-accent px-4 py-2 font-bold text-on-accent">
        Done
      </button>
    </dialog>
  );
}
