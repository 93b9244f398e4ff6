/**
 * Human tables (cli-table3), drawn without borders in the manner of gh: bold headers, columns two
 * spaces apart, widths fitted to the terminal by shrinking the widest columns first.
 */
import Table from 'cli-table3';
import { Chalk } from 'chalk';
import { cellText } from './sanitize.js';
import { getPath, leafPaths, scalarText } from './paths.js';

export interface TableOptions {
  color: boolean;
  /** Terminal width; columns are shrunk to fit it. */
  width?: number;
}

const GAP = 2;
const MIN_COLUMN = 6;
const PLAIN = {
  top: '', 'top-mid': '', 'top-left': '', 'top-right': '', bottom: '', 'bottom-mid': '', 'bottom-left': '', 'bottom-right': '',
  left: '', 'left-mid': '', mid: '', 'mid-mid': '', right: '', 'right-mid': '', middle: ' '.repeat(GAP),
};

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, Math.max(1, max - 1))}…` : text;
}

/** Widths that fit `total` columns of screen: the widest column gives way first. */
export function fitWidths(natural: number[], total: number): number[] {
  const widths = [...natural];
  const budget = total - GAP * (widths.length - 1);
  let sum = widths.reduce((a, b) => a + b, 0);
  while (sum > budget) {
    let widest = 0;
    for (let i = 1; i < widths.length; i++) if (widths[i] > widths[widest]) widest = i;
    if (widths[widest] <= MIN_COLUMN) break;
    widths[widest]--;
    sum--;
  }
  return widths;
}

function draw(head: string[], rows: string[][], o: TableOptions): string {
  const chalk = new Chalk({ level: o.color ? 1 : 0 });
  const natural = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const widths = fitWidths(natural, o.width ?? 120);
  const table = new Table({
    chars: PLAIN,
    style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0 },
    head: head.map((h, i) => chalk.bold(clip(h, widths[i]))),
    colWidths: widths,
    wordWrap: false,
    truncate: '…',
  });
  for (const row of rows) table.push(row.map((c, i) => clip(c, widths[i])));
  return table.toString().split('\n').map((l) => l.trimEnd()).join('\n') + '\n';
}

export function rowsTable(rows: unknown[], columns: string[], o: TableOptions): string {
  return draw(columns.map(cellText), rows.map((row) => columns.map((c) => cellText(scalarText(getPath(row, c))))), o);
}

export function recordTable(value: unknown, columns: string[], o: TableOptions): string {
  const keys = (columns.length ? columns : leafPaths(value)).map(cellText);
  const chalk = new Chalk({ level: o.color ? 1 : 0 });
  const width = Math.max(...keys.map((k) => k.length));
  const valueMax = Math.max(20, (o.width ?? 120) - width - GAP);
  return keys.map((k) => `${chalk.bold(k.padEnd(width))}${' '.repeat(GAP)}${clip(cellText(scalarText(getPath(value, k))), valueMax)}`).join('\n') + '\n';
}
