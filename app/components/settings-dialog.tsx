import { Link, useLocation } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { useShowToast } from "./toaster";
import { useHydrated } from "./use-hydrated";
import { longUtcDate } from "~/services/dates";
import { readSettings, writeSetting, type LocalSettings } from "~/services/local-settings";

type Account = { id: string; username: string | null; email: string; createdAt: string; vipTier: string; vipActive: boolean };

const section = "border-t border-slate-200 pt-3 dark:border-slate-700";
const TOGGLES: { key: Exclude<keyof LocalSettings, "theme">; label: string; group: string }[] = [
  { key: "emailNotifications", label: "Email notifications", group: "Notifications" },
  { key: "quickRaffleNotifications", label: "Quick raffle alerts", group: "Notifications" },
  { key: "soundEffects", label: "Sound effects", group: "Audio & Effects" },
  { key: "autoEnterFavorites", label: "Auto-enter favorite raffles", group: "Gameplay" },
];

/** The account's short facts, as Account Information shows them. */
export function accountInformation(account: Pick<Account, "id" | "createdAt">): string {
  return `Account ID: …${account.id.slice(-8)} · Member since ${longUtcDate(account.createdAt)}`;
}

/**
 * Settings. With JavaScript a modal dialog (focus stays inside, Escape closes);
 * without it, the Settings link opens the same content as a page section (?settings).
 */
export function SettingsDialog({ account, theme, supportEmail, open, onClose }: {
  account: Account;
  theme: "light" | "dark";
  supportEmail: string;
  open: boolean;
  onClose: () => void;
}) {
  const hydrated = useHydrated();
  const showToast = useShowToast();
  const location = useLocation();
  const dialog = useRef<HTMLDialogElement>(null);
  const [settings, setSettings] = useState<LocalSettings | null>(null);

  useEffect(() => {
    const element = dialog.current;
    if (!element || !hydrated) return;
    if (open && !element.open) {
      setSettings({ ...readSettings(window.localStorage), theme: document.documentElement.classList.contains("dark") ? "dark" : "light" });
      element.showModal();
    }
    if (!open && element.open) element.close();
  }, [open, hydrated]);

  const setTheme = (next: "light" | "dark") => {
    document.documentElement.classList.toggle("dark", next === "dark");
    writeSetting(window.localStorage, "theme", next);
    setSettings((s) => (s ? { ...s, theme: next } : s));
    void fetch("/theme", { method: "POST", body: new URLSearchParams({ theme: next }), headers: { Accept: "application/json" } });
  };
  const toggle = (key: Exclude<keyof LocalSettings, "theme">, value: boolean) => {
    writeSetting(window.localStorage, key, value);
    setSettings((s) => (s ? { ...s, [key]: value } : s));
  };
  const closeHref = location.pathname;
  const currentTheme = settings?.theme ?? theme;
  const supportTexts = {
    "Contact Support": `Our ticket system is coming soon. Meanwhile, email us at ${supportEmail}.`,
    "Help Center": "Our help center documentation is coming soon.",
    "Account Information": accountInformation(account),
  };

  return (
    <dialog
      ref={dialog}
      open={!hydrated && open ? true : undefined}
      onClose={onClose}
      aria-labelledby="settings-title"
      className="m-auto w-full max-w-md rounded-xl bg-white p-6 text-slate-900 backdrop:bg-slate-950/70 dark:bg-slate-900 dark:text-slate-100"
    >
      <h2 id="settings-title" className="text-xl font-bold">Settings</h2>
      <div className="mt-4 flex flex-col gap-3">
        <section aria-label="Account">
          <p className="font-semibold">{account.username ?? account.email}</p>
          <p className="text-sm text-slate-600 dark:text-slate-400">{account.email} · VIP {account.vipActive ? account.vipTier : "bronze"}</p>
        </section>
        <section aria-labelledby="appearance-title" className={section}>
          <h3 id="appearance-title" className="font-semibold">Appearance</h3>
          {hydrated ? (
            <label className="mt-1 flex items-center justify-between">
              Dark mode
              <input type="checkbox" role="switch" checked={currentTheme === "dark"} onChange={(e) => setTheme(e.target.checked ? "dark" : "light")} />
            </label>
          ) : (
            <form method="post" action="/theme" className="mt-1 flex items-center justify-between">
              <input type="hidden" name="theme" value={theme === "dark" ? "light" : "dark"} />
              <input type="hidden" name="redirectTo" value={`${location.pathname}?settings`} />
              <span>Dark mode: {theme === "dark" ? "on" : "off"}</span>
              <button type="submit" className="rounded border px-2 py-1">Turn {theme === "dark" ? "off" : "on"}</button>
            </form>
          )}
        </section>
        {["Notifications", "Audio & Effects", "Gameplay"].map((group) => (
          <section key={group} aria-label={group} className={section}>
            <h3 className="font-semibold">{group}</h3>
            {TOGGLES.filter((t) => t.group === group).map((t) => (
              <label key={t.key} className="mt-1 flex items-center justify-between">
                {t.label}
                <input
                  type="checkbox"
                  role="switch"
                  disabled={!hydrated}
                  checked={settings ? settings[t.key] : t.key !== "autoEnterFavorites"}
                  onChange={(e) => toggle(t.key, e.target.checked)}
                />
              </label>
            ))}
          </section>
        ))}
        <section aria-labelledby="support-title" className={section}>
          <h3 id="support-title" className="font-semibold">Support &amp; Help</h3>
          <div className="mt-1 flex flex-wrap gap-3 text-sm">
            <a href="/terms" target="_blank" rel="noreferrer" className="underline">Terms of Service</a>
            <a href="/privacy" target="_blank" rel="noreferrer" className="underline">Privacy Policy</a>
            <a href="/responsible-play" className="underline">Responsible play</a>
            <a href="/account/export" className="underline">Download my data</a>
            <a href="/account/close" className="underline">Close account</a>
          </div>
          {hydrated ? (
            <div className="mt-2 flex flex-wrap gap-2">
              {Object.entries(supportTexts).map(([title, description]) => (
                <button key={title} type="button" className="rounded border px-2 py-1 text-sm" onClick={() => showToast({ type: "info", title, description })}>
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
      {hydrated ? (
        <button type="button" onClick={onClose} className="mt-6 w-full rounded-md bg-brand-700 px-4 py-2 font-bold text-white">Done</button>
      ) : (
        <Link to={closeHref} className="mt-6 block w-full rounded-md bg-brand-700 px-4 py-2 text-center font-bold text-white">Done</Link>
      )}
    </dialog>
  );
}
