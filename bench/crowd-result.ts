/** What a crowd run measured (bench/crowd.ts): per step, events, draws, CPU and memory. */
export type CrowdStep = { step: string; count: number; p50: number; p99: number; errors: number };
export type CrowdResult = {
  players: number;
  seconds: number;
  /** How long latencies were counted: from every player's arrival to the end. */
  measuredSeconds: number;
  /** From the start until every player had their first page (and stream): how long a crowd arriving over ARRIVAL_MS waits to get in. */
  arrivalSeconds: number;
  steps: CrowdStep[];
  errors: number;
  errorSamples: string[];
  events: { sampled: number; p99: number };
  draws: { drawn: number; p99: number };
  appCpuPer1000PlayerMinutes: number;
  postgresCpuPer1000PlayerMinutes: number;
  /** The driver's own (this process): it shares the machine with the app and PostgreSQL. */
  driverCpuPer1000PlayerMinutes: number;
  /** The app's, PostgreSQL's and the driver's CPU together, as a share of every core for the run: near 1, the machine is full. */
  machineShare: number;
  appRssMb: number;
  /** The driver's event-loop delay p99 (ms) while latencies counted: how late it may see an answer. */
  driverLagP99: number;
};
