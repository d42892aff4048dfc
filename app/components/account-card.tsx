import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { Logo } from "./logo";

/** The signed-out pages around sign-in (forgot password, reset, verify): one narrow card. */
export function AccountCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col gap-8 px-4 py-10">
      {/* The mark that heads every other page, named "Raffle Rush" as its link. */}
      <Link to="/" className="self-start">
        <Logo />
      </Link>
      <section className="flex flex-col gap-4 rounded-xl border border-line bg-surface p-6" aria-labelledby="account-card-title">
        <h1 id="account-card-title" className="text-xl font-bold">
          {title}
        </h1>
        {children}
      </section>
    </main>
  );
}
