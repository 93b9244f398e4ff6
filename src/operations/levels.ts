/**
 * The levels of an issue, from most to least severe: the values of the stats' `severities` filter,
 * the keys of the service's severity counts, and the levels `svc gate` counts and fails on.
 */
export const LEVELS = ['critical', 'high', 'medium', 'low', 'info'] as const;
export type Level = (typeof LEVELS)[number];
