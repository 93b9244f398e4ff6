/**
 * Detail views: one record as a person reads it (a heading, key/value lines, long texts under them,
 * what to do next). A row of the operation table declares its view (`detail`); this module draws
 * any view, so a new one is data, not code.
 */
import type { ChalkInstance } from 'chalk';
import { levelOf, numericScore } from '../operations/levels.js';
import { cellOf, levelPaint, painter, statusPaint, type CellOptions } from './cells.js';
import { kindOf } from './columns.js';
import { DEFAULT_WIDTH } from './layout.js';
import { getPath, leafPaths, scalarText, shownAt } from './field-paths.js';
import { cellText, stripControls } from '../core/sanitize.js';
import { commandLines, displayWidth, wrap } from './text-width.js';
import { rowsTable } from './table.js';
import type { DetailField, DetailView } from '../operations/detail-view.js';
import type { countBars, seriesChart } from './chart.js';

export type { DetailView } from '../operations/detail-view.js';

interface DetailOptions extends CellOptions {
  width?: number;
  /** The chart module (./chart.ts), loaded by render.ts only for a view with chart or bars sections. */
  charts?: { seriesChart: typeof seriesChart; countBars: typeof countBars };
  /** The request body: values the next steps may name. */
  request?: Record<string, unknown>;
  /**
   * The answer's shape is not shown (the spec leaves its fields out): the fields the view does not
   * name are listed under `Other fields`, so a service's own fields (`totalOpen`, a map keyed by
   * repository) are never dropped from the table.
   */
  others?: boolean;
}

const present = (v: unknown) => v !== undefined && v !== null && v !== '' && !(Array.isArray(v) && v.length === 0);

export async function detailView(record: unknown, view: DetailView, o: DetailOptions): Promise<string> {
  const chalk = painter(o.color);
  const width = o.width ?? DEFAULT_WIDTH;
  const out: string[] = [];
  // A heading says the action worked: never when the service answered `ok: false`.
  const refused = getPath(record, 'ok') === false;
  if (refused) out.push(chalk.red.bold('The service answered ok: false: the action may not have been done.'));
  else if (view.heading) out.push(chalk.bold(fill(view.heading, record, o.request)));
  const title = view.title ? getPath(record, view.title) : undefined;
  if (present(title)) out.push(chalk.bold(cellText(scalarText(title))));
  if (out.length) out.push('');

  const lines: Array<[string, string]> = [];
  for (const f of view.fields) {
    // Fields of one label are alternatives (`scanId`, else `id`): the first that has a value is shown.
    if (lines.some(([l]) => l === f.label)) continue;
    const value = fieldText(record, f, o, chalk);
    if (value !== undefined) lines.push([f.label, value]);
  }
  const labelWidth = Math.max(0, ...lines.map(([l]) => displayWidth(l)));
  for (const [label, value] of lines) {
    const [first, ...rest] = value.split('\n');
    out.push(`${chalk.bold(label)}${' '.repeat(labelWidth - displayWidth(label) + 2)}${first}`);
    for (const more of rest) out.push(' '.repeat(labelWidth + 2) + more);
  }

  for (const s of view.sections ?? []) {
    const value = getPath(record, s.path);
    if ((s.show === 'chart' || s.show === 'bars') && o.charts) {
      // An empty series is said, not skipped: a chart that silently vanishes reads as a bug.
      // 80 columns off a terminal (a table there keeps its 120: a chart that wide reads badly).
      const chartOptions = { width: (o.width ?? 80) - 2, chalk };
      const lines = s.show === 'chart'
        ? (Array.isArray(value) ? o.charts.seriesChart(value, chartOptions) : [])
        : o.charts.countBars(value, chartOptions, s.keys);
      if (lines.length) out.push(...(out[out.length - 1] === '' ? [] : ['']), chalk.bold(s.label), ...lines.map((l) => (l ? `  ${l}` : '')));
      continue;
    }
    if (!present(value)) continue;
    if (s.show === 'table') {
      if (!Array.isArray(value)) continue;
      // A section's table keeps its columns when they read the same (a breakdown by level is a matrix).
      const table = rowsTable(value, s.columns ?? [], { ...o, width: width - 2, mayHide: true, dropUniform: false });
      out.push('', chalk.bold(s.label), ...table.trimEnd().split('\n').map((l) => `  ${l}`));
      continue;
    }
    const text = expandTabs(stripControls(scalarText(value))).replace(/\r\n?/g, '\n').replace(/\n+$/, '');
    out.push('', chalk.bold(s.label));
    if (s.show === 'text') out.push(...wrap(text, width - 2).map((l) => `  ${l}`));
    else out.push(...text.split('\n').map((l) => `  ${s.show === 'diff' ? diffPaint(chalk, l) : l}`));
  }

  const others = o.others ? unnamed(record, view) : [];
  if (others.length) {
    const width2 = Math.max(...others.map(([k]) => displayWidth(k)));
    out.push(...(out.length && out[out.length - 1] !== '' ? [''] : []), chalk.bold('Other fields'));
    for (const [k, v] of others) out.push(`  ${k}${' '.repeat(width2 - displayWidth(k) + 2)}${v}`);
  }

  const next = (view.next ?? []).filter((n) => !n.when || n.when.split('&').every((c) => holds(record, c.trim())));
  if (next.length) {
    if (out.length && out[out.length - 1] !== '') out.push('');
    out.push(chalk.bold('Next:'));
    // Within the width: a text wraps; a command continues with ` \` between its shell words, so
    // that it still pastes as one command.
    for (const n of next) {
      out.push(...wrap(fill(n.text, record, o.request), width - 2).map((l) => `  ${l}`));
      if (n.cmd) out.push(...commandLines(fill(n.cmd, record, o.request, true), width - 4).map((l) => `    ${chalk.cyan(l)}`));
    }
  }
  while (out.length && out[out.length - 1] === '') out.pop();
  return out.map((l) => l.trimEnd()).join('\n') + '\n';
}

/** Paths a view's special fields read beside their own (`location`, `repository`). */
const READS: Partial<Record<string, string[]>> = { location: ['affectedFile', 'startLine', 'endLine'], repository: ['repositoryName', 'repositoryId'] };

/**
 * The leaves of `record` under top-level keys the view names nowhere (fields, sections, title), as
 * [path, text] lines, cleaned; at most 50 (-o json shows every one).
 */
function unnamed(record: unknown, view: DetailView): Array<[string, string]> {
  if (record === null || typeof record !== 'object' || Array.isArray(record)) return [];
  const named = new Set<string>([
    ...view.fields.flatMap((f) => [...(f.path ? [f.path] : []), ...(READS[f.show ?? ''] ?? [])]),
    ...(view.sections ?? []).map((s) => s.path),
    ...(view.title ? [view.title] : []),
  ].map((p) => p.split('.')[0]));
  const lines: Array<[string, string]> = [];
  for (const [key, value] of Object.entries(record)) {
    if (named.has(key) || !present(value)) continue;
    for (const path of leafPaths({ [key]: value })) {
      const text = cellText(scalarText(shownAt({ [key]: value }, path)));
      if (text !== '') lines.push([cellText(path), text]);
    }
  }
  return lines.slice(0, 50);
}

/** One condition of a next step: `path` (has a value), `!path` (has none), `path=a|b` (is one of), `path!=a|b` (is none of). */
function holds(record: unknown, cond: string): boolean {
  const m = /^([^!=]+)(!?=)(.*)$/.exec(cond);
  if (!m) return cond.startsWith('!') ? !present(getPath(record, cond.slice(1))) : present(getPath(record, cond));
  const value = getPath(record, m[1]);
  const isOne = m[3].split('|').includes(typeof value === 'string' || typeof value === 'number' ? String(value) : '');
  return m[2] === '=' ? isOne : !isOne;
}

function fieldText(record: unknown, f: DetailField, o: DetailOptions, chalk: ChalkInstance): string | undefined {
  const value = f.path ? getPath(record, f.path) ?? getPath(o.request, f.path) : undefined;
  switch (f.show) {
    case 'location': {
      const file = getPath(record, 'affectedFile');
      if (!present(file)) return undefined;
      const start = getPath(record, 'startLine');
      const end = getPath(record, 'endLine');
      const lines = typeof start === 'number' ? (typeof end === 'number' && end > start ? `:${start}-${end}` : `:${start}`) : '';
      return cellText(`${scalarText(file)}${lines}`);
    }
    case 'repository': {
      const name = getPath(record, 'repositoryName');
      const id = getPath(record, 'repositoryId');
      if (!present(name) && !present(id)) return undefined;
      return cellText(present(name) && present(id) ? `${scalarText(name)} (${scalarText(id)})` : scalarText(present(name) ? name : id));
    }
    case 'level': {
      const n = numericScore(value);
      if (n === undefined) return present(value) ? cellText(scalarText(value)) : undefined;
      const level = levelOf(n);
      const severity = getPath(record, 'severity');
      // A severity sent as text (`"8.5"`, warned as not the spec's number) is shown as it came, as the score is.
      const said = typeof severity === 'number' ? String(severity) : typeof severity === 'string' ? cellText(severity).trim() : '';
      const parts = [`score ${n}`, ...(said ? [`severity ${said}`] : [])];
      return `${levelPaint(chalk, level)(level)} (${parts.join(', ')})`;
    }
    case 'cwes': {
      if (!Array.isArray(value) || value.length === 0) return undefined;
      return value.map((c) => {
        const id = cellText(scalarText(c));
        const n = /^(?:CWE-)?(\d+)$/i.exec(id)?.[1];
        return n ? `CWE-${n}  ${chalk.underline(`https://cwe.mitre.org/data/definitions/${n}.html`)}` : id;
      }).join('\n');
    }
    case 'days': {
      return typeof value === 'number' ? `${value} day${value === 1 ? '' : 's'}` : present(value) ? cellText(scalarText(value)) : undefined;
    }
    case 'counts': {
      if (value === null || typeof value !== 'object') return undefined;
      const parts = Object.entries(value as Record<string, unknown>).filter(([, v]) => typeof v === 'number').map(([k, v]) => `${k} ${v}`);
      return parts.length ? cellText(parts.join(', ')) : undefined;
    }
    case 'status': {
      if (!present(value)) return undefined;
      const text = cellText(scalarText(value));
      return statusPaint(chalk, text)?.(text) ?? text;
    }
    case 'time': {
      if (!present(value)) return undefined;
      const exact = cellText(scalarText(value));
      const shown = cellOf(value, 'time', o, chalk).text;
      return shown === exact ? exact : `${shown} (${exact})`;
    }
    default: {
      if (!present(value)) return undefined;
      const cell = cellOf(value, kindOf(f.path ?? ''), { ...o, pretty: false }, chalk);
      return cell.paint ? cell.paint(cell.text) : cell.text;
    }
  }
}

/**
 * `{path}` from the record, else the request; `{a||b}` is `a`, else `b`; `{path|on}` says a flag as on/off. A value the
 * request set to null reads "reset".
 */
function fill(template: string, record: unknown, request?: Record<string, unknown>, shell = false): string {
  return template.replace(/\{([\w.]+)(?:\|\|([\w.]+))?(\|on|\|--[\w-]+)?\}/g, (whole, first: string, second: string | undefined, on?: string) => {
    const have = (p: string) => present(getPath(record, p) ?? getPath(request, p));
    const path = second !== undefined && !have(first) ? second : first;
    const v = getPath(record, path) ?? getPath(request, path);
    if (on === '|on' && typeof v === 'boolean') return v ? 'on' : 'off';
    // `{isEnabled|--is-enabled}`: the boolean flag as it is now, `--is-enabled` or `--no-is-enabled`.
    if (on?.startsWith('|--') && typeof v === 'boolean') return v ? on.slice(1) : `--no-${on.slice(3)}`;
    if (v === null && request && getPath(request, path) === null) return 'reset';
    if (!present(v)) return whole;
    const text = cellText(scalarText(v));
    return shell ? shellWord(text) : text;
  });
}

/**
 * A value the service sent, as one shell word in a command people paste: as it is when it is plain
 * (ids, zone names), else in single quotes, so `;`, `$(...)` or a space never reach the shell as syntax.
 */
function shellWord(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

function expandTabs(text: string): string {
  return text.replace(/\t/g, '    ');
}

function diffPaint(chalk: ChalkInstance, line: string): string {
  if (line.startsWith('+++') || line.startsWith('---')) return chalk.bold(line);
  if (line.startsWith('+')) return chalk.green(line);
  if (line.startsWith('-')) return chalk.red(line);
  if (line.startsWith('@@')) return chalk.cyan(line);
  return line;
}
