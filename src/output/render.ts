/** Render a response in the chosen format: data to stdout, notes (counts, hints) to stderr. */
import type { Format } from './formats.js';
import { csvHeader, csvRow } from './csv.js';
import { getPath, leafPaths } from './paths.js';
import { stripControls } from './sanitize.js';

export interface RenderOptions {
  format: Format;
  /** Columns chosen with --columns, else the operation's defaults (may be empty: then derived). */
  columns: string[];
  /** Where the rows of a table live in an object response. */
  rowsPath?: string;
  pretty: boolean;
  color: boolean;
  width?: number;
}

export interface Sink {
  out(text: string): void;
  note(text: string): void;
}

/** The list a table shows: the response itself when it is an array, else the field `rowsPath`. */
export function rowsOf(data: unknown, rowsPath?: string): unknown[] | undefined {
  if (Array.isArray(data)) return data;
  if (rowsPath) {
    const rows = getPath(data, rowsPath);
    if (Array.isArray(rows)) return rows;
    return undefined;
  }
  // No declared rows (shapes the spec does not show): a record holding exactly one list of
  // records, like `{ repositories: [...], total }`, is shown as that list.
  if (data !== null && typeof data === 'object') {
    const lists = Object.values(data).filter((v) => Array.isArray(v) && v.length > 0 && v.every((x) => x !== null && typeof x === 'object' && !Array.isArray(x)));
    if (lists.length === 1) return lists[0] as unknown[];
  }
  return undefined;
}

/** Columns for a list with no defaults: the scalar leaves of the first row, at most 8. */
export function autoColumns(rows: unknown[]): string[] {
  const first = rows.find((r) => r !== null && typeof r === 'object');
  if (!first) return ['value'];
  return leafPaths(first).filter((p) => !Array.isArray(getPath(first, p)) || p.split('.').length === 1).slice(0, 8);
}

export async function render(data: unknown, o: RenderOptions, sink: Sink): Promise<void> {
  const rows = rowsOf(data, o.rowsPath);
  switch (o.format) {
    case 'json':
      sink.out(JSON.stringify(data, null, o.pretty ? 2 : undefined) + '\n');
      return;
    case 'ndjson':
      for (const item of rows ?? [data]) sink.out(JSON.stringify(item) + '\n');
      return;
    case 'csv': {
      const list = rows ?? [data];
      const columns = o.columns.length ? o.columns : rows ? autoColumns(list) : leafPaths(data);
      let text = csvHeader(columns);
      for (const row of list) text += csvRow(primitiveRow(row), columns);
      // Cleaned of controls and formulas cell by cell (csv.ts), on a terminal or not.
      sink.out(text);
      return;
    }
    case 'table': {
      const { rowsTable, recordTable } = await import('./table.js');
      if (rows) {
        if (rows.length === 0) { sink.note('No results.'); return; }
        const columns = o.columns.length ? o.columns : autoColumns(rows);
        sink.out(rowsTable(rows.map(primitiveRow), columns, o));
        noteTotals(data, rows.length, sink);
      } else if (data !== null && typeof data === 'object') {
        sink.out(recordTable(data, o.columns, o));
      } else {
        sink.out(`${stripControls(String(data))}\n`);
      }
    }
  }
}

/** A list of strings or numbers renders as a column called `value`. */
function primitiveRow(row: unknown): unknown {
  return row !== null && typeof row === 'object' ? row : { value: row };
}

function noteTotals(data: unknown, shown: number, sink: Sink): void {
  const total = getPath(data, 'totalCount');
  if (typeof total === 'number' && total > shown) {
    const page = getPath(data, 'currentPage');
    sink.note(`Showing ${shown} of ${total}${typeof page === 'number' ? ` (page ${page})` : ''}; use --page, --page-size or --all for more.`);
  }
}
