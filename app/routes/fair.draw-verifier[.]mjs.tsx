import verifierSource from "~/shared/draw-verifier.mjs?raw";

/** The draw verifier as a file to download (the /fair/<id> pages run the same code). Public. */
export function loader() {
  return new Response(verifierSource, {
    headers: {
      "Content-Type": "text/javascript; charset=utf-8",
      "Content-Disposition": 'attachment; filename="draw-verifier.mjs"',
      "Cache-Control": "public, max-age=300",
    },
  });
}
