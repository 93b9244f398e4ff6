/**
 * How one value is shown to a person: cleaned of control sequences, times relative on a terminal
 * (`3 days ago`) and exact elsewhere, levels and statuses coloured on a terminal only. A cell is its
 * plain text (measured, clipped, padded) and a paint step applied last, so colour never counts
 * towards a width.
 */
import { Chalk, type ChalkInstance } from 'chalk';
import { isLevel, levelOf, numericScore, type Level } from '../operations/levels.js';
import { scalarText } from './field-paths.js';
import { cellText } from '../core/sanitize.js';
import type { ColumnKind } from './columns.js';

export interface CellOptions {
  /** On a terminal: relative times. */
  pretty: boolean;
  color: boolean;
  /** Wall-clock now, epoch milliseconds (for relative times). */
  now: number;
}

type Paint = (text: string) => string;

export interface Cell {
  text: string;
  paint?: Paint;
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

export function painter(color: boolean): ChalkInstance {
  return new Chalk({ level: color ? 1 : 0 });
}

export function levelPaint(chalk: ChalkInstance, level: Level): Paint {
  switch (level) {
    case 'critical': return (s) => chalk.red.bold(s);
    case 'high': return (s) => chalk.red(s);
    case 'medium': return (s) => chalk.yellow(s);
    case 'low': return (s) => chalk.cyan(s);
    default: return (s) => chalk.dim(s);
  }
}

const STATUS_COLOURS: Record<string, 'green' | 'yellow' | 'red' | 'cyan' | 'dim'> = {
  open: 'yellow', patched: 'green', fixed: 'green', merged: 'green', completed: 'green', finished: 'green', done: 'green', success: 'green',
  processing: 'cyan', running: 'cyan', queued: 'cyan', pending: 'cyan', draft: 'cyan',
  failed: 'red', error: 'red', errored: 'red',
  falsepositive: 'dim', archived: 'dim', closed: 'dim', silenced: 'dim', notexploitable: 'dim', cancelled: 'dim',
};

export function statusPaint(chalk: ChalkInstance, status: string): Paint | undefined {
  const c = STATUS_COLOURS[status.toLowerCase()];
  return c ? (s) => chalk[c](s) : undefined;
}

/** `3 days ago`, `in 2 hours`, `just now`: what a person reads at a glance. */
export function relativeTime(iso: string, now: number): string | undefined {
  const t = Date.parse(iso);
  if (!Number.isFinite(t)) return undefined;
  const s = Math.round((now - t) / 1000);
  const abs = Math.abs(s);
  if (abs < 45) return 'just now';
  const units: Array<[number, string]> = [[60, 'minute'], [3600, 'hour'], [86400, 'day'], [30 * 86400, 'month'], [365 * 86400, 'year']];
  let [size, name] = units[0];
  for (const u of units) if (abs >= u[0] * 0.95) [size, name] = u;
  const n = Math.max(1, Math.round(abs / size));
  const text = `${n} ${name}${n === 1 ? '' : 's'}`;
  return s >= 0 ? `${text} ago` : `in ${text}`;
}

/** The cell of one value in a column of the given kind. */
export function cellOf(value: unknown, kind: ColumnKind, o: CellOptions, chalk: ChalkInstance): Cell {
  const text = cellText(scalarText(value));
  if (text === '') return { text };
  switch (kind) {
    case 'time':
      return { text: o.pretty && ISO_TIME.test(text) ? relativeTime(text, o.now) ?? text : text };
    case 'score':
    case 'severity': {
      const n = numericScore(value);
      if (n === undefined) return { text };
      return { text, paint: levelPaint(chalk, levelOf(kind === 'severity' ? n * 10 : n)) };
    }
    case 'level':
      return { text, paint: isLevel(text) ? levelPaint(chalk, text) : undefined };
    case 'status':
      return { text, paint: statusPaint(chalk, text) };
    default:
      if (o.pretty && ISO_TIME.test(text) && text.length <= 30) return { text: relativeTime(text, o.now) ?? text };
      return { text };
  }
}
