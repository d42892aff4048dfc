import { formatDollars } from "~/shared/money";

type Point = { start: string; cents: number };
type Period = "daily" | "weekly" | "monthly";

const WIDTH = 640;
const HEIGHT = 200;
const TOP = 16;
const BOTTOM = 24;
const LEFT = 8;

const label = (period: Period, start: string) =>
  new Intl.DateTimeFormat(
    "en-US",
    period === "monthly" ? { month: "short", year: "2-digit", timeZone: "UTC" } : { month: "short", day: "numeric", timeZone: "UTC" },
  ).format(new Date(start));

/**
 * Revenue over time as bars, drawn on the server as SVG (works without JavaScript): one bar
 * per period, the zero line where it falls, each bar's amount in its tooltip.
 */
export function RevenueChart({ period, points }: { period: Period; points: Point[] }) {
  const max = Math.max(0, ...points.map((p) => p.cents));
  const min = Math.min(0, ...points.map((p) => p.cents));
  const span = Math.max(1, max - min);
  const plot = HEIGHT - TOP - BOTTOM;
  const y = (cents: number) => TOP + ((max - cents) / span) * plot;
  const slot = (WIDTH - LEFT) / Math.max(1, points.length);
  const total = points.reduce((sum, p) => sum + p.cents, 0);
  const every = Math.ceil(points.length / 8);
  return (
    <figure className="flex flex-col gap-2" data-testid="revenue-chart">
      <figcaption className="text-sm">
        Revenue {period === "daily" ? "per day, last 30 days" : period === "weekly" ? "per week, last 12 weeks" : "per month, last 12 months"}:{" "}
        {formatDollars(BigInt(total))} in all
      </figcaption>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} className="h-auto w-full max-w-2xl text-accent-ink" role="img" aria-labelledby="revenue-chart-title">
        <title id="revenue-chart-title">{`Revenue ${period}: highest ${formatDollars(BigInt(max))}, total ${formatDollars(BigInt(total))}`}</title>
        <line x1={LEFT} x2={WIDTH} y1={y(0)} y2={y(0)} className="stroke-line-strong" strokeWidth={1} />
        {points.map((p, i) => {
          const top = Math.min(y(p.cents), y(0));
          const height = Math.max(p.cents === 0 ? 0 : 1, Math.abs(y(p.cents) - y(0)));
          return (
            <g key={p.start} data-testid="revenue-bar" data-cents={p.cents}>
              <rect x={px(LEFT + i * slot + slot * 0.15)} y={px(top)} width={px(slot * 0.7)} height={px(height)} fill="currentColor">
                <title>{`${label(period, p.start)}: ${formatDollars(BigInt(p.cents))}`}</title>
              </rect>
              {i % every === 0 ? (
                <text x={px(LEFT + i * slot + slot / 2)} y={HEIGHT - 6} textAnchor="middle" className="fill-ink-muted text-[11px]">
                  {label(period, p.start)}
                </text>
              ) : null}
            </g>
          );
        })}
      </svg>
    </figure>
  );
}

/**
 * A coordinate to a tenth of a pixel: finer is invisible, and a long fraction such as
 * 601.0266666666666 is a run of digits that the card-data scans would flag.
 */
function px(value: number): number {
  return Math.round(value * 10) / 10;
}
