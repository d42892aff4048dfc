/** "2026-06-08 11:00 UTC": how pages and messages state a moment. */
export function utcMinute(at: Date | string): string {
  return `${new Date(at).toISOString().slice(0, 16).replace("T", " ")} UTC`;
}
