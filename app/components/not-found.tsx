import { ErrorFrame } from "./route-error";

/** The not-found page: player-facing wording, no developer hints. */
export function NotFound() {
  return (
    <ErrorFrame status={404} title="Page Not Found">
      <p>We couldn’t find the page you were looking for. It may have moved, or the link may be mistyped.</p>
    </ErrorFrame>
  );
}
