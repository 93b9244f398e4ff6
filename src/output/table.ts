/** Human tables (cli-table3): rows with chosen columns, or a key/value table for a single record. */
import Table from 'cli-table3';
import { Chalk } from 'chalk';
import { cellText } from './sanitize.js';
import { getPath, leafPaths, scalarText } from './paths.js';

export interface TableOptions {
  color: boolean;
  /** Terminal width; cells are cut to share it. */
  width?: number;
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, Math.max(1, max - 1))}…` : text;
}

export function rowsTable(rows: unknown[], columns: string[], o: TableOptions): string {
  const chalk = new Chalk({ level: o.color ? 1 : 0 });
  const width = o.width ?? 120;
  const cellMax = Math.max(8, Math.floor((width - 3 * columns.length - 1) / Math.max(1, columns.length)));
  const table = new Table({
    head: columns.map((c) => chalk.bold(cellText(c))),
    style: { head: [], border: o.color ? ['grey'] : [] },
    wordWrap: false,
  });
  for (const row of rows) table.push(columns.map((c) => clip(cellText(scalarText(getPath(row, c))), cellMax)));
  return table.toString() + '\n';
}

export function recordTable(value: unknown, columns: string[], o: TableOptions): string {
  const chalk = new Chalk({ level: o.color ? 1 : 0 });
  const keys = columns.length ? columns : leafPaths(value);
  const valueMax = Math.max(20, (o.width ?? 120) - Math.max(...keys.map((k) => k.length), 4) - 7);
  const table = new Table({ style: { head: [], border: o.color ? ['grey'] : [] } });
  for (const k of keys) table.push({ [chalk.bold(cellText(k))]: clip(cellText(scalarText(getPath(value, k))), valueMax) });
  return table.toString() + '\n';
}
