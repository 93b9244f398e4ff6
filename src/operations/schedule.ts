/**
 * Scan schedules: the crontab and the timezone are checked before anything is sent (the service
 * would reject them), with croner (a maintained cron parser, no dependencies) and the time zones
 * Intl knows; the human output shows the next three runs.
 */
import { Cron } from 'croner';
import * as z from './zod.js';
import { editDistance } from '../core/edit-distance.js';

/** What is wrong with a 5-field crontab expression, or undefined. */
function crontabProblem(expr: string): string | undefined {
  const parts = expr.trim().split(/\s+/).filter(Boolean);
  if (parts.length !== 5) return `a crontab has 5 fields (minute hour day-of-month month day-of-week), got ${parts.length}`;
  try {
    const cron = new Cron(parts.join(' '), { paused: true, legacyMode: true });
    if (cron.nextRun() === null) return 'it never runs (no such date)';
  } catch (err) {
    return (err as Error).message.replace(/^CronPattern:\s*/, '').replace(/\.$/, '');
  }
  return undefined;
}

/** Whether Intl knows the time zone (IANA names such as Europe/Berlin, and UTC). */
function isTimeZone(name: string): boolean {
  if (name.trim() === '' || name !== name.trim()) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

export const crontab = () => z.string().check(z.check((ctx) => {
  const problem = crontabProblem(ctx.value);
  if (problem) ctx.issues.push({ code: 'custom', message: `is not a valid crontab: ${problem}`, input: ctx.value });
}));

export const timeZone = () => z.string().check(z.check((ctx) => {
  if (isTimeZone(ctx.value)) return;
  const near = nearestTimeZone(ctx.value);
  ctx.issues.push({ code: 'custom', message: `is not a time zone name (IANA, e.g. Europe/Berlin or UTC)${near ? `; did you mean ${near}?` : ''}`, input: ctx.value });
}));

/** The zone Intl knows whose name (or city, after the last /) is nearest to a typo, if near enough. */
function nearestTimeZone(typed: string): string | undefined {
  const t = typed.trim().toLowerCase().replace(/ /g, '_');
  if (!t) return undefined;
  const zones = [...Intl.supportedValuesOf('timeZone'), 'UTC'];
  let best: string | undefined;
  let bestD = Infinity;
  for (const zone of zones) {
    const z = zone.toLowerCase();
    const d = Math.min(editDistance(t, z), t.includes('/') ? Infinity : editDistance(t, z.slice(z.lastIndexOf('/') + 1)));
    if (d < bestD) { bestD = d; best = zone; }
  }
  return bestD <= Math.max(1, Math.floor(t.length / 4)) ? best : undefined;
}

/** The next `n` runs of a valid schedule, as local times of its zone (`2026-11-23 03:00 Europe/Berlin`). */
export function nextRuns(expr: string, zone: string | undefined, n = 3, from = new Date()): string[] {
  const cron = new Cron(expr.trim(), { paused: true, legacyMode: true, ...(zone ? { timezone: zone } : {}) });
  const fmt = new Intl.DateTimeFormat('sv-SE', { timeZone: zone ?? 'UTC', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  return cron.nextRuns(n, from).map((d) => `${fmt.format(d)} ${zone ?? 'UTC'}`);
}
