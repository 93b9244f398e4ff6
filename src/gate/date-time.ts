/**
 * An issue's dates as the gate reads them (`--new-since`, and `svc issues search`'s local date
 * filters): an ISO 8601 date-time (the spec's timestamps); a date-time without a zone is read as
 * UTC, whatever the runner's TZ (an inference: see isoInstant); anything else, a bare number or a date alone included, is not one. An
 * issue whose date is not one is counted as new by the gate (sieve.ts; named: answers/checks.ts
 * `created-unreadable`). Pure: no I/O.
 */
const ISO_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?([Zz]|[+-]\d{2}(?::?\d{2})?)?$/;

/**
 * How far a date-time without a zone may be from its reading as UTC: the zones in use run from
 * UTC-12 to UTC+14, so the instant is up to 14 h before it or 12 h after it.
 */
export const NO_ZONE_SPREAD_MS = { before: 14 * 3_600_000, after: 12 * 3_600_000 };

/** Whether `value` is an ISO 8601 date-time without a zone (`2026-03-10T10:00:00`). */
export function withoutZone(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  const m = ISO_DATE_TIME.exec(value.trim());
  return m !== null && m[8] === undefined;
}

/**
 * An ISO 8601 date-time as ms since the epoch, or undefined when it is not one (a bare number, a
 * date alone, a day that does not exist). Without a zone it is read as UTC (the runner's TZ never
 * moves it). Inference: the spec says only "ISO 8601 date-time", where a time without a zone is
 * local time of an unknown zone; --new-since therefore counts one that UTC+-spread makes either
 * side of the cut-off as new (since.ts mayBeNew).
 */
export function isoInstant(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const m = ISO_DATE_TIME.exec(value.trim());
  if (!m) return undefined;
  const [y, mo, d, h, mi, s] = [1, 2, 3, 4, 5, 6].map((k) => Number(m[k] ?? 0));
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 24 || mi > 59 || s > 60) return undefined;
  const ms = m[7] ? Number(`0.${m[7]}`) * 1000 : 0;
  let t = Date.UTC(y, mo - 1, d, h, mi, Math.min(s, 59), ms);
  const day = new Date(Date.UTC(y, mo - 1, d));
  if (day.getUTCFullYear() !== y || day.getUTCMonth() !== mo - 1 || day.getUTCDate() !== d) return undefined;
  if (h === 24 && (mi !== 0 || s !== 0 || ms !== 0)) return undefined;
  const zone = m[8];
  if (zone && zone !== 'Z' && zone !== 'z') {
    const zm = /^([+-])(\d{2}):?(\d{2})?$/.exec(zone)!;
    const off = (Number(zm[2]) * 60 + Number(zm[3] ?? 0)) * 60_000;
    if (Number(zm[2]) > 23 || Number(zm[3] ?? 0) > 59) return undefined;
    t -= zm[1] === '+' ? off : -off;
  }
  return Number.isFinite(t) ? t : undefined;
}
