/** The break and self-exclusion periods a player can choose (shared with the page). */
export const BREAKS = { "24h": { kind: "break", days: 1 }, "7d": { kind: "break", days: 7 }, "30d": { kind: "break", days: 30 } } as const;
export const EXCLUSIONS = {
  "6m": { kind: "self_exclusion", days: 183 },
  "1y": { kind: "self_exclusion", days: 365 },
  "5y": { kind: "self_exclusion", days: 5 * 365 },
} as const;
export type ExclusionChoice = keyof typeof BREAKS | keyof typeof EXCLUSIONS;
