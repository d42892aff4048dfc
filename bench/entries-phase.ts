import type { Child } from "./infra";
import type { Player } from "./fixtures";
import { checkDoors, entriesHot, entriesSpread, openEntryRaffles, referenceEntries, type EntryDoor } from "./figures";
import type { ReferenceRaffles } from "./reference/setup";
import { showSpread, spread, type Row } from "./repeat";

type Load = Awaited<ReturnType<typeof entriesHot>>;
type Shape = "one hot raffle" | "every tier";
const SHAPES: Shape[] = ["one hot raffle", "every tier"];
const DOORS: { door: EntryDoor; name: string }[] = [
  { door: "page", name: "the card's page action" },
  { door: "api", name: "the API" },
];

/**
 * Figure 1, entries, `repeats` times: each time the app (through both doors, both shapes) and
 * then the reference (both shapes), each on a fresh server, so that neither always runs on a
 * warmer or a cooler machine. A row's ratio is the median of the runs' ratios, each run's app
 * figure over the same run's reference.
 */
export async function entriesPhase({
  repeats,
  seconds,
  players,
  startApp,
  startReference,
  raffles,
  log,
}: {
  repeats: number;
  seconds: number;
  players: Player[];
  startApp: () => Promise<Child>;
  startReference: () => Promise<Child>;
  raffles: ReferenceRaffles;
  log: (line: string) => void;
}): Promise<{ rows: Row[]; details: string[]; loads: { phase: string; load: Load }[] }> {
  const app = new Map<string, Load[]>();
  const reference = new Map<Shape, Load[]>();
  const loads: { phase: string; load: Load }[] = [];
  const add = <K>(map: Map<K, Load[]>, key: K, load: Load) => map.set(key, [...(map.get(key) ?? []), load]);
  const mine = await openEntryRaffles();
  for (let run = 1; run <= repeats; run++) {
    const server = await startApp();
    try {
      if (run === 1) await checkDoors(server.port, players[0]!, mine.hot);
      for (const { door, name } of DOORS) {
        for (const shape of SHAPES) {
          log(`entries ${run}/${repeats}, ${shape}, ${name}: ${players.length} players, ${seconds} s`);
          const common = { port: server.port, players, seconds, door };
          const load =
            shape === "one hot raffle" ? await entriesHot({ ...common, raffle: mine.hot }) : await entriesSpread({ ...common, raffles: mine.everyTier });
          add(app, `${door}:${shape}`, load);
          loads.push({ phase: `entries (${shape}, ${door})`, load });
        }
      }
    } finally {
      await server.stop();
    }
    const plain = await startReference();
    try {
      for (const shape of SHAPES) {
        log(`entries ${run}/${repeats}, ${shape}, reference: ${players.length} players, ${seconds} s`);
        const list = shape === "one hot raffle" ? [raffles.hot] : raffles.everyTier;
        const load = await referenceEntries({ port: plain.port, players, seconds, raffles: list });
        add(reference, shape, load);
        loads.push({ phase: `reference entries (${shape})`, load });
      }
    } finally {
      await plain.stop();
    }
  }

  const rows: Row[] = [];
  const details: string[] = [];
  for (const { phase, load } of loads) {
    if (load.failed) details.push(`Entries, ${phase}: ${load.failed} failed requests, e.g. ${load.failures.join("; ")}`);
  }
  for (const shape of SHAPES) {
    const plain = reference.get(shape)!;
    for (const { door, name } of DOORS) {
      const runs = app.get(`${door}:${shape}`)!;
      const ratio = spread(runs.map((load, i) => load.perSecond / plain[i]!.perSecond));
      const p99 = spread(runs.map((load) => load.p99));
      const failed = [...runs, ...plain].some((load) => load.failed > 0);
      rows.push({
        figure: `Entries, ${shape}, ${name} (${players.length} players)`,
        measured: `${showSpread(spread(runs.map((l) => l.perSecond)))} entries/s, p50 ${showSpread(spread(runs.map((l) => l.p50)), 1, " ms")}, p99 ${showSpread(p99, 1, " ms")}`,
        baseline: `reference (Express + pg, plain transaction): ${showSpread(spread(plain.map((l) => l.perSecond)))} entries/s, p99 ${showSpread(spread(plain.map((l) => l.p99)), 1, " ms")}`,
        ratio: showSpread(ratio, 2),
        target: "ratio ≥ 1.0, p99 ≤ 100 ms (medians)",
        pass: ratio.median >= 1 && p99.median <= 100 && !failed,
      });
      log(`  ${rows.at(-1)!.figure}: ${rows.at(-1)!.measured} → ratio ${rows.at(-1)!.ratio}`);
    }
  }
  return { rows, details, loads };
}
