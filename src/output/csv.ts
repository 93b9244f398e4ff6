/** RFC 4180 CSV: a header of column paths, one line per row. */
import { getPath, scalarText } from './paths.js';

export function csvCell(v: unknown): string {
  const s = scalarText(v);
  return /[",\r\n]/.test(s) || /^\s|\s$/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function csvHeader(columns: string[]): string {
  return columns.map(csvCell).join(',') + '\r\n';
}

export function csvRow(row: unknown, columns: string[]): string {
  return columns.map((c) => csvCell(getPath(row, c))).join(',') + '\r\n';
}
