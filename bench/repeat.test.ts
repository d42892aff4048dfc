import { describe, expect, it } from "vitest";
import type { CrowdResult } from "./crowd";
import { medianOfRuns, showSpread, spread } from "./repeat";

function run(overrides: Partial<CrowdResult> & { entryP99: number; homeP99?: number }): CrowdResult {
  const { entryP99, homeP99, ...rest } = overrides;
  return {
    players: 1000,
    seconds: 120,
    measuredSeconds: 110,
    arrivalSeconds: 8,
    steps: [
      { step: "entry", count: 4000, p50: 40, p99: entryP99, errors: 0 },
      ...(homeP99 === undefined ? [] : [{ step: "home", count: 700, p50: 45, p99: homeP99, errors: 0 }]),
    ],
    errors: 0,
    errorSamples: [],
    events: { sampled: 100, p99: 300 },
    draws: { drawn: 4, p99: 50 },
    appCpuPer1000PlayerMinutes: 70,
    postgresCpuPer1000PlayerMinutes: 30,
    driverCpuPer1000PlayerMinutes: 13,
    machineShare: 0.85,
    appRssMb: 1300,
    driverLagP99: 40,
    ...rest,
  };
}

describe("a crowd size's runs, as one result", () => {
  it("takes each figure's median, so that one run far off does not decide it", () => {
    const runs = [
      run({ entryP99: 305, homeP99: 346, appCpuPer1000PlayerMinutes: 68.7, machineShare: 0.83 }),
      run({ entryP99: 7762, homeP99: 1163, appCpuPer1000PlayerMinutes: 73.3, machineShare: 0.86 }),
      run({ entryP99: 927, homeP99: 780, appCpuPer1000PlayerMinutes: 71.7, machineShare: 0.85 }),
    ];
    const median = medianOfRuns(runs);
    expect(median.steps.find((s) => s.step === "entry")?.p99).toBe(927);
    expect(median.steps.find((s) => s.step === "home")?.p99).toBe(780);
    expect(median.appCpuPer1000PlayerMinutes).toBe(71.7);
    expect(median.machineShare).toBe(0.85);
  });

  it("adds up errors and samples, and keeps the highest RSS", () => {
    const median = medianOfRuns([
      run({ entryP99: 100, errors: 0, appRssMb: 1300, events: { sampled: 100, p99: 300 } }),
      run({ entryP99: 100, errors: 26, errorSamples: ["home: Connect Timeout Error"], appRssMb: 1448, events: { sampled: 50, p99: 400 } }),
      run({ entryP99: 100, errors: 0, appRssMb: 1336, events: { sampled: 80, p99: 350 } }),
    ]);
    expect(median.errors).toBe(26);
    expect(median.errorSamples).toEqual(["home: Connect Timeout Error"]);
    expect(median.appRssMb).toBe(1448);
    expect(median.events).toEqual({ sampled: 230, p99: 350 });
  });

  it("keeps a step that only some runs had, from those runs", () => {
    const median = medianOfRuns([run({ entryP99: 100 }), run({ entryP99: 120, homeP99: 500 })]);
    expect(median.steps.map((s) => s.step).sort()).toEqual(["entry", "home"]);
    expect(median.steps.find((s) => s.step === "home")?.p99).toBe(500);
  });

  it("refuses a size without a run", () => {
    expect(() => medianOfRuns([])).toThrow(/without a run/);
  });
});

describe("a figure's spread", () => {
  it("prints the median with the lowest and highest run, and one run alone", () => {
    expect(showSpread(spread([305, 7762, 927]), 0, " ms")).toBe("927 ms (305–7762)");
    expect(showSpread(spread([305]), 0, " ms")).toBe("305 ms");
  });
});
