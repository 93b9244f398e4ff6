/** Render a response in the chosen format: data to stdout, notes (counts, hints) to stderr. */
import type { Format } from './formats.js';
import { csvHeader, csvRow, readableHeaders } from './csv.js';
import { getPath, leafPaths, shownAt } from './field-paths.js';
import type { DetailView } from './detail.js';
import { stripControls, terminalJson } from '../core/sanitize.js';
import { jqText, jqValues } from './jq.js';
import { exactStringify, inexactWarnings, projectRowExact, withServiceText } from './exact-json.js';

export interface RenderOptions {
  format: Format;
  /** Columns chosen with --columns, else the operation's defaults (may be empty: then derived). */
  columns: string[];
  /** Where the rows of a table live in an object response. */
  rowsPath?: string;
  /**
   * The answer's shape is not shown (no record declared: a row whose response the spec leaves "not
   * shown", `svc api`): a record holding exactly one list of records is shown as that list. Never for
   * a declared record (an issue, a schedule), whose unknown extra list is one of its fields.
   */
  findRows?: boolean;
  pretty: boolean;
  color: boolean;
  width?: number;
  /** The user chose the columns (--columns): JSON and NDJSON rows are cut down to them too. */
  project?: boolean;
  /** The names the user gave --columns, as typed: the CSV header (else readable headers). */
  names?: string[];
  /** `--jq` expression applied to the JSON output. */
  jq?: string;
  /** The detail view of a single record (a table of one row shows it too). */
  detail?: DetailView;
  /** The request body, for the detail view's next steps. */
  request?: Record<string, unknown>;
  /** Wall-clock now in epoch ms (relative times); default Date.now(). */
  now?: number;
}

export interface Sink {
  out(text: string): void;
  note(text: string): void;
  /** Write and wait while the reader is slow (long tables are written in chunks through it). */
  write?(text: string): Promise<void>;
  /** Aborted on Ctrl-C: a long table stops between two chunks. */
  signal?: AbortSignal;
  /** A warning line (stderr, after `warning: `); else note() with the prefix. */
  warn?(text: string): void;
}

/** A warning through the sink. */
function warnTo(sink: Pick<Sink, 'note' | 'warn'>, line: string): void {
  if (sink.warn) sink.warn(line);
  else sink.note(`warning: ${line}`);
}

/**
 * JSON and NDJSON write a number a double does not hold as the service sent it (with --columns too);
 * --jq computes with doubles and cannot: it says so, one line per number (output/exact-json.ts).
 */
export function warnInexact(data: unknown, o: { jq?: string }, sink: Pick<Sink, 'note' | 'warn'>): void {
  if (o.jq) for (const line of inexactWarnings(data, '--jq computes with doubles and sees')) warnTo(sink, line);
}

/**
 * The list a table shows: the response itself when it is an array, else the field `rowsPath`, else
 * (`find`: a shape the spec does not show) the one list of records the record holds.
 */
export function rowsOf(data: unknown, rowsPath?: string, find = false): unknown[] | undefined {
  if (Array.isArray(data)) return data;
  if (rowsPath) {
    const rows = getPath(data, rowsPath);
    if (Array.isArray(rows)) return rows;
    return undefined;
  }
  // No declared rows (shapes the spec does not show): a record holding exactly one list of
  // records, like `{ repositories: [...], total }`, is shown as that list. A declared record (an
  // issue with an extra `comments: [...]`, a schedule) is the record: its list was shown instead
  // of it, the record lost from the table and CSV.
  if (find && data !== null && typeof data === 'object') {
    const lists = Object.values(data).filter((v) => Array.isArray(v) && v.length > 0 && v.every((x) => x !== null && typeof x === 'object' && !Array.isArray(x)));
    if (lists.length === 1) return lists[0] as unknown[];
  }
  return undefined;
}

/**
 * The columns of a table or CSV: the chosen ones (--columns), else the row's defaults, unless no row
 * has a value in any of them: an answer of a shape the spec does not show (`repos branches` answered
 * `["main", "develop"]`, or records of other fields) had every value dropped under empty default
 * columns. Then the rows' own columns (`value` for strings and numbers).
 */
function shownColumns(o: Pick<RenderOptions, 'columns' | 'project'>, rows: readonly unknown[], own: () => string[]): string[] {
  if (!o.columns.length) return own();
  if (o.project || rows.length === 0) return o.columns;
  return rows.some((r) => o.columns.some((c) => shownAt(primitiveRow(r), c) != null)) ? o.columns : own();
}

/** Columns for a list with no defaults: the scalar leaves of the first row, at most 8. */
export function autoColumns(rows: unknown[]): string[] {
  const first = rows.find((r) => r !== null && typeof r === 'object');
  if (!first) return ['value'];
  return leafPaths(first).filter((p) => !Array.isArray(getPath(first, p)) || p.split('.').length === 1).slice(0, 8);
}

export async function render(answer: unknown, o: RenderOptions, sink: Sink): Promise<void> {
  // A table and CSV show the service's text of a number a double does not hold (a string cell).
  const data = o.format === 'csv' || o.format === 'table' ? withServiceText(answer) : answer;
  const rows = rowsOf(data, o.rowsPath, o.findRows);
  switch (o.format) {
    case 'json': {
      warnInexact(data, o, sink);
      const shown = o.project ? projectData(data, o) : data;
      if (o.jq) { await jqOut(shown, o, sink); return; }
      const text = exactStringify(shown, data, o.pretty ? 2 : undefined);
      sink.out((o.pretty ? terminalJson(text) : text) + '\n');
      return;
    }
    case 'ndjson':
      warnInexact(data, o, sink);
      for (const item of rows ?? [data]) {
        const shown = o.project ? projectRowExact(item, o.columns) : item;
        if (o.jq) await jqOut(shown, o, sink);
        else {
          const text = exactStringify(shown, data);
          sink.out((o.pretty ? terminalJson(text) : text) + '\n');
        }
      }
      return;
    case 'csv': {
      const list = rows ?? [data];
      const columns = shownColumns(o, list, () => (rows ? autoColumns(list) : leafPaths(data).length ? leafPaths(data) : ['value']));
      // A shape the spec does not show may be a map keyed by data (vuln class, repository): its keys kept as written.
      let text = csvHeader(columns, (o.project ? o.names : undefined) ?? readableHeaders(columns, o.findRows ? list : undefined));
      for (const row of list) text += csvRow(primitiveRow(row), columns);
      // Cleaned of controls and formulas cell by cell (csv.ts), on a terminal or not.
      sink.out(text);
      return;
    }
    case 'table': {
      const table = await tableRenderers();
      // Default columns may be left out on a narrow terminal (said on stderr); chosen ones never.
      const later: string[] = [];
      // The chart module, only for a view that draws charts or bars (the stats commands).
      const charts = o.detail?.sections?.some((s) => s.show === 'chart' || s.show === 'bars') && !o.project ? await chartRenderers() : undefined;
      // Default columns: the rows here are the whole answer, so one that reads the same on each is said once.
      const people = { ...o, now: o.now ?? Date.now(), mayHide: !o.project, dropUniform: !o.project, note: (l: string) => later.push(l), charts };
      if (o.detail?.whole && isRecord(data) && !o.project) {
        // A shape the spec does not show: what the view does not name is listed under it, not dropped.
        sink.out(await table.detailView(data, o.detail, { ...people, others: o.findRows === true }));
      } else if (rows) {
        // The list of a record the spec does not show, found (`{ timeSaved: {...}, byRepository: [...] }`)
        // or where the row guessed it (`branches` of repos branches): the record's other fields first, not dropped.
        const beside = o.findRows && isRecord(data) && !o.project ? besideRows(data, rows) : undefined;
        if (beside) sink.out(table.recordTable(beside, [], people) + '\n');
        if (rows.length === 0) { sink.note('No results.'); return; }
        // One row as its record's view; not a view of the whole answer (`whole`: the stats), which
        // names the answer's fields, not a row's: its one row was drawn as the heading alone.
        if (rows.length === 1 && o.detail && !o.detail.whole && !o.project && isRecord(rows[0])) {
          sink.out(await table.detailView(rows[0], o.detail, people));
          return;
        }
        const columns = shownColumns(o, rows, () => autoColumns(rows));
        const list = rows.map(primitiveRow);
        if (list.length > table.SCREENFUL && sink.write) {
          await new table.TableStream(columns, people, { write: sink.write, signal: sink.signal }).rows(list);
        } else {
          sink.out(table.rowsTable(list, columns, people));
        }
        for (const l of later) sink.note(l);
        noteTotals(data, rows.length, sink);
      } else if (isRecord(data)) {
        if (o.detail && !o.project) {
          sink.out(await table.detailView(data, o.detail, people));
        } else {
          // Its own fields when the row's default columns have nothing (as in CSV), never a record
          // of empty default columns: a shape the spec does not show, or an IdResponse whose id is
          // not under `id` (the spec does not show its field list: `{ "repositoryId": ... }`).
          const columns = shownColumns(o, [data], () => []);
          // `{}` (an IdResponse with no field at all): said on stderr, not a blank line on stdout.
          if (columns.length === 0 && leafPaths(data).length === 0) { sink.note('The answer is an empty record ({}).'); return; }
          sink.out(table.recordTable(data, columns, people));
        }
      } else {
        sink.out(`${stripControls(String(data))}\n`);
      }
    }
  }
}

/**
 * The table format's renderers (tables, detail views), loaded when it is chosen: cli-table3, chalk
 * and string-width are evaluated by no JSON, NDJSON or CSV call (the one lazy edge of src/output/).
 */
export async function tableRenderers() {
  const { SCREENFUL, TableStream, recordTable, rowsTable } = await import('./table.js');
  const { detailView } = await import('./detail.js');
  return { SCREENFUL, TableStream, recordTable, rowsTable, detailView };
}

/** The stats views' charts and bars (./chart.ts), loaded only for a view that draws them. */
async function chartRenderers() {
  const { seriesChart, countBars } = await import('./chart.js');
  return { seriesChart, countBars };
}

/** The fields of `data` beside its list `rows` that hold something, or undefined when none does. */
function besideRows(data: Record<string, unknown>, rows: unknown[]): Record<string, unknown> | undefined {
  const rest = Object.entries(data).filter(([, v]) => v !== rows && v !== undefined && v !== null && v !== '');
  return rest.length ? Object.fromEntries(rest) : undefined;
}

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

async function jqOut(data: unknown, o: RenderOptions, sink: Sink): Promise<void> {
  sink.out(jqText(await jqValues(data, o.jq!), o.pretty));
}

/** The data with its rows (or, for a record, itself) cut down to the chosen columns. */
export function projectData(data: unknown, o: Pick<RenderOptions, 'rowsPath' | 'columns'>): unknown {
  if (Array.isArray(data)) return data.map((r) => projectRowExact(r, o.columns));
  const rows = o.rowsPath ? getPath(data, o.rowsPath) : undefined;
  if (Array.isArray(rows) && isRecord(data)) return setIn(data, o.rowsPath!.split('.'), rows.map((r) => projectRowExact(r, o.columns)));
  return projectRowExact(data, o.columns);
}

function setIn(obj: Record<string, unknown>, keys: string[], value: unknown): Record<string, unknown> {
  const [first, ...rest] = keys;
  const inner = obj[first];
  return { ...obj, [first]: rest.length && isRecord(inner) ? setIn(inner, rest, value) : value };
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
