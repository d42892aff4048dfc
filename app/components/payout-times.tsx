import type { PayoutTimes } from "~/services/money/payout-times.server";

/** A duration as a player reads it: "45 s", "12 min", "3 h 5 min", "2 d 4 h". */
export function formatDuration(seconds: number): string {
  if (seconds < 60) return `${Math.max(0, Math.round(seconds))} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
  const days = Math.floor(hours / 24);
  return hours % 24 ? `${days} d ${hours % 24} h` : `${days} d`;
}

/** /fair's payout figures: time from request to money sent per method, and refusals per reason. */
export function PayoutTimesSection({ times }: { times: PayoutTimes }) {
  const refused = times.refused.reduce((sum, r) => sum + r.count, 0);
  return (
    <section aria-labelledby="payout-times-title" className="flex flex-col gap-3" data-testid="payout-times">
      <h2 id="payout-times-title" className="text-2xl font-bold">
        Payout times
      </h2>
      <p className="text-sm text-ink-muted">
        From our records of the last {times.days} days: how long withdrawals took from the request to the money sent, and how many we refused, and why.
      </p>
      {times.methods.length === 0 ? (
        <p>No withdrawal was paid out in the last {times.days} days.</p>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Time from withdrawal request to money sent, per method</caption>
            <thead>
              <tr className="border-b border-line-strong">
                <th scope="col" className="py-2 pr-3">
                  Method
                </th>
                <th scope="col" className="py-2 pr-3 text-right">
                  Paid out
                </th>
                <th scope="col" className="py-2 pr-3 text-right">
                  Median
                </th>
                <th scope="col" className="py-2 text-right">
                  95% within
                </th>
              </tr>
            </thead>
            <tbody>
              {times.methods.map((m) => (
                <tr key={m.label} className="border-b border-line" data-testid="payout-method">
                  <th scope="row" className="py-2 pr-3 font-normal">
                    {m.label}
                  </th>
                  <td className="py-2 pr-3 text-right">{m.count}</td>
                  <td className="py-2 pr-3 text-right">{formatDuration(m.medianSeconds)}</td>
                  <td className="py-2 text-right">{formatDuration(m.p95Seconds)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <h3 className="text-lg font-bold">Refused: {refused}</h3>
      {refused === 0 ? (
        <p>We refused no withdrawal in the last {times.days} days.</p>
      ) : (
        <ul className="list-disc pl-6 text-sm" data-testid="payout-refusals">
          {times.refused.map((r) => (
            <li key={r.reason}>
              {r.reason}: {r.count}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
