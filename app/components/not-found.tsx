/** The not-found page: player-facing wording, no developer hints. */
export function NotFound() {
  return (
    <main className="mx-auto flex min-h-screen max-w-lg flex-col items-center justify-center gap-4 p-6 text-center">
      <p className="text-6xl font-black text-brand-600">404</p>
      <h1 className="text-3xl font-bold">Page Not Found</h1>
      <p>We couldn’t find the page you were looking for. It may have moved, or the link may be mistyped.</p>
      <a className="rounded-md bg-brand-700 px-4 py-2 font-semibold text-white" href="/">
        Back to the home page
      </a>
    </main>
  );
}
