import { Link } from "@remix-run/react";
import { ArrowLeft } from "lucide-react";
import type { ReactNode } from "react";

export function LegalPage({ title, updated, sections }: { title: string; updated: string; sections: { heading: string; body: ReactNode }[] }) {
  return (
    <main className="mx-auto max-w-3xl px-4 py-10">
      <BackHome />
      <h1 className="mt-4 text-3xl font-black">{title}</h1>
      <p className="mt-1 text-sm text-ink-muted">Last updated {updated}</p>
      <ol className="mt-6 flex flex-col gap-6">
        {sections.map((section, i) => (
          <li key={section.heading}>
            <h2 className="text-xl font-bold">
              {i + 1}. {section.heading}
            </h2>
            <div className="mt-2 flex flex-col gap-2 leading-relaxed">{section.body}</div>
          </li>
        ))}
      </ol>
      <BackHome className="mt-10" />
    </main>
  );
}

/** The way back from a page outside the player's frame. */
export function BackHome({ className = "" }: { className?: string }) {
  return (
    <Link to="/" className={`inline-flex items-center gap-1 underline ${className}`}>
      <ArrowLeft aria-hidden="true" className="size-4" />
      Back to Raffle Rush
    </Link>
  );
}
