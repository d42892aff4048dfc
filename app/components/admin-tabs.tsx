import { useFetcher } from "@remix-run/react";
import type { ReactNode } from "react";

/** The back office's tabs, each a nested route of /admin (`/admin/payouts`...), in the order of its nav. */
export const ADMIN_TABS = ["payouts", "users", "raffles", "complaints", "audit", "ledger"] as const;
export type AdminTab = (typeof ADMIN_TABS)[number];

const th = "px-2 py-1 text-left text-xs font-semibold uppercase text-ink-muted";
const td = "px-2 py-1 align-top";
const small = "min-h-6 min-w-6 rounded border border-line-strong px-2 py-0.5 text-xs font-semibold max-sm:min-h-11";

/**
 * A table of the back office. On a phone its rows stack (each cell on its own line, led by
 * its column's name) so that nothing, the row's buttons least of all, is off-screen.
 */
export function Table({ head, children, label }: { head: string[]; children: ReactNode; label: string }) {
  return (
    // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrollable region must be reachable by keyboard
    <div className="overflow-x-auto" role="region" aria-label={label} tabIndex={0}>
      <table className="w-full text-sm max-sm:block max-sm:[&_tbody]:block max-sm:[&_td]:block max-sm:[&_tr]:block max-sm:[&_tr]:py-2">
        <thead className="max-sm:sr-only">
          <tr>
            {head.map((h) => (
              <th key={h} className={th}>
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-line">{children}</tbody>
      </table>
    </div>
  );
}

/** A cell; `label` (its column's name) leads it when the rows stack on a phone. */
export function Cell({ children, label }: { children: ReactNode; label?: string }) {
  return (
    <td className={`${td} break-words`}>
      {label ? <span className="font-semibold sm:hidden">{label}: </span> : null}
      {children}
    </td>
  );
}

/** A form with one text field posting to a back-office action: a fetcher, or a plain post without JavaScript. */
export function TextAction({
  action,
  name,
  label,
  button,
  fields = {},
  danger = false,
}: {
  action: string;
  name: string;
  label: string;
  button: string;
  fields?: Record<string, string>;
  danger?: boolean;
}) {
  const fetcher = useFetcher();
  return (
    <fetcher.Form method="post" action={action} preventScrollReset className="flex flex-wrap items-center gap-1">
      {Object.entries(fields).map(([field, value]) => (
        <input key={field} type="hidden" name={field} value={value} />
      ))}
      <label className="flex items-center gap-1 text-xs">
        {label}
        <input name={name} required minLength={3} maxLength={200} className="w-36 max-w-full rounded border bg-surface px-2 py-1 text-sm text-ink" />
      </label>
      <button type="submit" disabled={fetcher.state !== "idle"} className={`${small} min-h-6 ${danger ? "text-red-800 dark:text-red-300" : ""}`}>
        {button}
      </button>
    </fetcher.Form>
  );
}

/** A one-button form posting to a back-office action: a fetcher, or a plain post without JavaScript. */
export function ActionButton({
  action,
  label,
  fields = {},
  danger = false,
}: {
  action: string;
  label: string;
  fields?: Record<string, string>;
  danger?: boolean;
}) {
  const fetcher = useFetcher();
  return (
    <fetcher.Form method="post" action={action} preventScrollReset className="inline">
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <button type="submit" disabled={fetcher.state !== "idle"} className={`${small} ${danger ? "text-red-800 dark:text-red-300" : ""}`}>
        {label}
      </button>
    </fetcher.Form>
  );
}

/** A form with one choice posting to a back-office action: a fetcher, or a plain post without JavaScript. */
export function SelectAction({
  action,
  id,
  name,
  label,
  defaultValue,
  options,
  button,
}: {
  action: string;
  id: string;
  name: string;
  label: string;
  defaultValue: string;
  options: { value: string; label: string }[];
  button: string;
}) {
  const fetcher = useFetcher();
  return (
    <fetcher.Form method="post" action={action} preventScrollReset className="flex gap-1">
      <label className="sr-only" htmlFor={id}>
        {label}
      </label>
      <select id={id} name={name} defaultValue={defaultValue} className="rounded border bg-surface px-1 text-ink">
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      <button type="submit" disabled={fetcher.state !== "idle"} className="rounded border px-2">
        {button}
      </button>
    </fetcher.Form>
  );
}
