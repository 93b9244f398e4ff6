/**
 * CSV (RFC 4180 quoting, LF line ends so that `sed -n 2p` gives a clean value): a header of column
 * paths, one line per row. Service text is untrusted in a spreadsheet too: control characters and
 * escape sequences are removed, and a text cell that a spreadsheet would run as a formula (it starts
 * with `=`, `+`, `-`, `@`, a tab or a CR, the OWASP list) gets a leading `'` so it shows as text.
 */
import { scalarText, shownAt } from './field-paths.js';
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
 */
export function readableHeaders(columns: readonly string[]): string[] {
  return columnsOf(columns).map((c) => c.header.toLowerCase());
}

export function csvRow(row: unknown, columns: string[]): string {
  return columns.map((c) => csvCell(shownAt(row, c))).join(',') + '\n';
}
