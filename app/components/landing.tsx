import { ButtonLink } from "./button";
import { Logo } from "./logo";
import { SiteFooter } from "./site-chrome";

const features = [
  { title: "Lightning Fast", text: "Raffles close every few minutes, and quick rounds every 30 seconds." },
  { title: "Micro Stakes", text: "Tickets from $0.05 to $25.00, so everyone can play at their own pace." },
  { title: "50/50 Split", text: "The winner takes half of the pot. Every draw can be checked by anyone." },
];

/** The signed-out landing page. Every sign-in button is a plain link to /api/login. */
export function Landing({ live }: { live: { totalPlayers: number; totalPots: string; winnersToday: number } }) {
  return (
    <div className="flex min-h-screen flex-col">
      <header className="flex items-center justify-between gap-2 border-b border-line px-4 py-3">
        <div className="flex items-center gap-2">
          <Logo className="h-6 w-auto sm:h-8" />
          <span className="rounded bg-red-600 px-2 py-0.5 text-xs font-bold text-white">LIVE</span>
        </div>
        <ButtonLink variant="secondary" href="/api/login">
          Login to Play
        </ButtonLink>
      </header>
      <main className="flex-1">
        <section className="mx-auto max-w-3xl px-4 py-16 text-center">
          <h1 className="text-4xl font-bold sm:text-5xl">Micro-stakes raffles. Real winners.</h1>
          <p className="mt-4 text-lg text-ink-muted">Buy a ticket, watch the pot grow, and win half of it. For adults 18 and over.</p>
          <ButtonLink href="/api/login" className="mt-8 text-lg">
            Get Started
          </ButtonLink>
        </section>
        <section aria-label="Features" className="mx-auto grid max-w-5xl gap-4 px-4 pb-16 sm:grid-cols-3">
          {features.map((feature) => (
            <article key={feature.title} className="rounded-xl border border-line bg-surface p-6">
              <h2 className="text-xl font-bold">{feature.title}</h2>
              <p className="mt-2 text-ink-muted">{feature.text}</p>
            </article>
          ))}
        </section>
        <section aria-labelledby="live-title" className="mx-auto max-w-5xl px-4 pb-16">
          <h2 id="live-title" className="text-center text-2xl font-bold">
            Live Right Now
          </h2>
          <dl className="mt-4 grid grid-cols-3 gap-4 text-center" data-testid="live-strip">
            <div>
              <dt className="text-sm">Active players</dt>
              <dd className="font-display text-2xl font-bold">{live.totalPlayers.toLocaleString("en-US")}</dd>
            </div>
            <div>
              <dt className="text-sm">Total live pots</dt>
              <dd className="font-display text-2xl font-bold">${live.totalPots}</dd>
            </div>
            <div>
              <dt className="text-sm">Winners today</dt>
              <dd className="font-display text-2xl font-bold">{live.winnersToday.toLocaleString("en-US")}</dd>
            </div>
          </dl>
        </section>
        <section className="bg-night px-4 py-12 text-center text-on-night">
          <h2 className="text-2xl font-bold">Ready to play?</h2>
          <ButtonLink href="/api/login" className="mt-6">
            Join Now
          </ButtonLink>
        </section>
      </main>
      <SiteFooter signedIn={false} />
    </div>
  );
}
