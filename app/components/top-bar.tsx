import { Form, Link } from "@remix-run/react";

/** Balance, welcome name and sign-out. */
export function TopBar({ name, coinBalance }: { name: string; coinBalance: number }) {
  return (
    <header className="flex flex-wrap items-center justify-between gap-3 border-b border-slate-200 px-4 py-3 dark:border-slate-800">
      <Link to="/" className="text-lg font-black">Raffle Rush</Link>
      <div className="flex items-center gap-3 text-sm">
        <span className="rounded-full bg-amber-100 px-3 py-1 font-bold text-amber-900 dark:bg-amber-900 dark:text-amber-100" data-testid="coin-balance">
          {coinBalance.toLocaleString("en-US")} coins
        </span>
        <span>Welcome, <strong data-testid="welcome-name">{name}</strong></span>
        <Form method="post" action="/api/logout">
          <button type="submit" className="rounded-md border border-slate-300 px-3 py-1 dark:border-slate-700">Logout</button>
        </Form>
      </div>
    </header>
  );
}
