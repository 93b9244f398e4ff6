/** The seeded timeline: generated records fall in the year before a fixed anchor, so a seed always gives the same dates. */
export const ANCHOR_MS = Date.parse('2026-06-30T00:00:00.000Z');
export const DAY_MS = 86_400_000;
export const SPAN_DAYS = 365;

export function iso(ms: number): string {
  return new Date(ms).toISOString();
}
