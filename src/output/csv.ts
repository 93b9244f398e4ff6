/**
 * CSV (RFC 4180 quoting, LF line ends so that `sed -n 2p` gives a clean value): a header of column
 * paths, one line per row. Service text is untrusted in a spreadsheet too: control characters and
 * escape sequences are removed, and a text cell that a spreadsheet would run as a formula (it starts
 * with `=`, `+`, `-`, `@`, a tab or a CR, the OWASP list) gets a leading `'` so it shows as text.
 */
import { keysAt, scalarText, shownAt } from './field-paths.js';
import { columnsOf } from './columns.js';
import { stripControls } from '../core/sanitize.js';

/** Would start a formula in a spreadsheet (also after leading spaces, which some of them skip). */
function formulaLike(text: string): boolean {
  return /^[\s\u00a0]*[=+\-@]/.test(text) || /^[\t\r]/.test(text);
}

/** A JSON number's text (the service's text of a number a double does not hold: output/exact-json.ts). */
const NUMBER_TEXT = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$/;

function csvCell(v: unknown): string {
  const raw = scalarText(v);
  // A number is data, never a formula: -5 stays -5; so is a number's text alone (-1e400: digits, no call).
  if (typeof v === 'number' || (typeof v === 'string' && NUMBER_TEXT.test(v))) return raw;
  // Every control out (a tab too: a spreadsheet may split on it); line breaks stay, quoted.
  let s = stripControls(raw).replace(/\t/g, ' ');
  if (formulaLike(raw) || formulaLike(s)) s = `'${s}`;
  return /[",\n']/.test(s) || /^\s|\s$/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** The header line: the column paths, or `names` (readableHeaders, the --columns as typed). */
export function csvHeader(columns: string[], names: readonly string[] = columns): string {
  return names.map(csvCell).join(',') + '\n';
}

/**
 * The header of a listing's CSV without --columns: each column's table header in lower case
 * (`generatedTitle` -> `title`, `isPrScanningEnabled` -> `pr scans`): readable, unique, and taken
 * back by --columns as it is. With --columns, the names as typed.
 *
 * A column under a key that is data, not a field name (a map keyed by vulnerability class or
 * repository, in an answer the spec does not show: `{ "XSS": 3, "acme/web.app": 4 }`), keeps that
 * key as written (`XSS`, `acme/web.app`, `acme/web.app hours`), never reworded: `rows`, the rows
 * the columns are of, tell which keys those are (dataKey).
 */
export function readableHeaders(columns: readonly string[], rows: readonly unknown[] = []): string[] {
  // `rows` only for an answer the spec does not show (render.ts): a declared record's fields are its own.
  const headers = columnsOf(columns).map((c) => c.header.toLowerCase());
  if (rows.length === 0) return headers;
  const kept = columns.map((c) => dataKeyHeader(c, rows));
  if (kept.every((h) => h === undefined)) return headers;
  const out = columns.map((_, i) => kept[i] ?? headers[i]);
  // Unique as columnsOf makes them: a name two columns would share is numbered.
  const seen = new Map<string, number>();
  return out.map((h) => { const n = (seen.get(h) ?? 0) + 1; seen.set(h, n); return n > 1 ? `${h} (${n})` : h; });
}

/** A field name as the service writes one (`totalOpen`, `hours`); any other key is data. */
const FIELD_NAME = /^[a-z][a-zA-Z0-9]*$/;

/** A record some of whose keys are not field names is a map keyed by data: every key of it is data. */
const keyedByData = (holder: Record<string, unknown>) => Object.keys(holder).some((k) => !FIELD_NAME.test(k));

/** The header of a column under a data key: from the last such key on, the key as written, the fields after it in words. */
function dataKeyHeader(column: string, rows: readonly unknown[]): string | undefined {
  for (const row of rows.slice(0, 50)) {
    const keys = keysAt(row, column);
    if (!keys) continue;
    let last = -1;
    keys.forEach((k, i) => { if (keyedByData(k.holder)) last = i; });
    if (last < 0) return undefined;
    const after = keys.slice(last + 1).map((k) => columnsOf([k.key])[0].header.toLowerCase());
    return [stripControls(keys[last].key).replace(/\s+/g, ' ').trim(), ...after].join(' ');
  }
  return undefined;
}

export function csvRow(row: unknown, columns: string[]): string {
  return columns.map((c) => csvCell(shownAt(row, c))).join(',') + '\n';
}
