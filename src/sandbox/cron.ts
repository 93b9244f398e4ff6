/** A light check of 5-field crontab expressions and timezone names, enough to answer 400 for typos. */

const FIELDS: ReadonlyArray<[string, number, number]> = [['minute', 0, 59], ['hour', 0, 23], ['day of month', 1, 31], ['month', 1, 12], ['day of week', 0, 7]];
const NAMES: Record<number, string[]> = {
  3: ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'],
  4: ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'],
};

/** Undefined when valid, else what is wrong. */
export function cronProblem(expr: string): string | undefined {
  const parts = expr.trim().split(/\s+/);
  if (parts.length !== 5) return `expected 5 fields (minute hour day-of-month month day-of-week), got ${parts.length}`;
  for (const [k, part] of parts.entries()) {
    const [name, min, max] = FIELDS[k];
    for (const item of part.split(',')) {
      const m = /^(\*|[\da-z]+(?:-[\da-z]+)?)(?:\/(\d+))?$/i.exec(item);
      if (!m) return `invalid ${name} '${item}'`;
      if (m[2] !== undefined && Number(m[2]) < 1) return `invalid step in ${name} '${item}'`;
      if (m[1] === '*') continue;
      for (const v of m[1].split('-')) {
        const named = NAMES[k]?.indexOf(v.toLowerCase()) ?? -1;
        const n = named >= 0 ? named + (k === 3 ? 1 : 0) : /^\d+$/.test(v) ? Number(v) : NaN;
        if (!(n >= min && n <= max)) return `${name} '${v}' is out of range ${min}-${max}`;
      }
    }
  }
  return undefined;
}

/** The one time-zone check, shared with svc's own (scans upsert-schedule checks before sending). */
export { isTimeZone as isTimezone } from '../operations/schedule.js';
