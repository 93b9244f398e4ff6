/**
 * svc's own table layout, in the manner of gh: no borders, bold headers, columns two spaces apart.
 * Widths are planned once, from a sample of rows (the first page) and the headers; every row is then
 * one line, cut and padded to those widths: linear in rows, so a listing of any length can be
 * written as it arrives. A title keeps a share of the width it can be read in (TITLE_SHARE); past
 * that, other text gives way, then default columns are left out, and only then the title shrinks
 * further; keys (ids, names) are never cut, so they can be copied into the next command.
 */
import type { ChalkInstance } from 'chalk';
import { scalarText, shownAt } from './field-paths.js';
import { cellOf, painter, type Cell, type CellOptions } from './cells.js';
import { columnsOf, companionOf, nameOf, type Column } from './columns.js';
import { clip, clipPath, displayWidth } from './text-width.js';
import { cellText } from '../core/sanitize.js';

export const GAP = 2;
/** Narrowest a title column gets before anything but titles shrinks to its floor. */
const TITLE_MIN = 16;
/**
 * The share of the width a title keeps before other text gives way below LEGIBLE and before default
 * columns are left out: 32 columns at 80, 48 at 120, 80 at 200 (or its natural width, if less).
 * At 16 columns (what titles got at 80 and at 120 before), no title of the service could be read.
 */
const TITLE_SHARE = 0.4;
/** Narrowest any column that may shrink gets. */
const COLUMN_MIN = 6;
/** Default width when not on a terminal (`-o table` in a pipe). */
export const DEFAULT_WIDTH = 120;

export interface LayoutOptions extends CellOptions {
  /** Terminal width; columns are fitted to it. */
  width?: number;
  /**
   * The columns are the command's defaults (not chosen with --columns): on a narrow terminal, rather
   * than cut every column to a few letters, the rightmost columns that are neither keys nor titles
   * are left out (and named in a note).
   */
  mayHide?: boolean;
  /** Told which columns were left out. */
  note?: (line: string) => void;
  /**
   * The rows planned from are the whole list (not the first page of a stream), and the columns are
   * the command's defaults: a column that reads the same on every row is left out and said once in a
   * note (UNIFORM_KINDS; see dropUniform).
   */
  dropUniform?: boolean;
}

/**
 * Kinds of column left out of a default table when every row reads the same (`STATUS open` on an
 * open-only search, `BRANCH main`): what it says is said once, in a note, and its width goes to the
 * title. Never keys (ids and names name the row, to copy), titles, or a level or score (the rank a
 * triager reads down the page: a page of criticals still says so on each row, in its colour).
 */
/** How the note of the columns left out for reading the same on every row begins. */
export const SAME_ON_EVERY_ROW = 'Same on every row, not shown:';

const UNIFORM_KINDS: ReadonlySet<string> = new Set(['status', 'text', 'path', 'number', 'flag', 'time']);

/** A column that may shrink is still legible at this width (or its natural width, if less). */
const LEGIBLE = 10;
/** A path, cut from the left, keeps its file's name and line at this width (`…/reports.ts:668`). */
const PATH_LEGIBLE = 20;

/** The width a title keeps while other columns give way (see TITLE_SHARE). */
function titleTarget(total: number): number {
  return Math.max(TITLE_MIN, Math.floor(total * TITLE_SHARE));
}

/**
 * Widths that fit `total` columns of screen: titles shrink first, down to their share of the width
 * (titleTarget), then other text down to LEGIBLE (paths to PATH_LEGIBLE), then titles to TITLE_MIN, other text to its
 * header (at least COLUMN_MIN), titles to COLUMN_MIN, then, as a last resort, anything but keys down
 * to one column: a table is never wider than the screen unless its keys (never cut) leave no room
 * for a column each of the others.
 */
export function fitWidths(natural: readonly number[], total: number, columns?: readonly Pick<Column, 'kind' | 'header'>[]): number[] {
  const widths = [...natural];
  const budget = total - GAP * (widths.length - 1);
  let over = widths.reduce((a, b) => a + b, 0) - budget;
  const kind = (i: number) => columns?.[i]?.kind ?? 'text';
  const shrink = (may: (i: number) => boolean, floor: (i: number) => number) => {
    while (over > 0) {
      let widest = -1;
      for (let i = 0; i < widths.length; i++) {
        if (may(i) && widths[i] > floor(i) && (widest < 0 || widths[i] > widths[widest])) widest = i;
      }
      if (widest < 0) return;
      // Take from the widest down to the next widest (or its floor), at most what is over.
      let next = floor(widest);
      for (let i = 0; i < widths.length; i++) if (i !== widest && may(i)) next = Math.max(next, widths[i]);
      const take = Math.min(over, Math.max(1, widths[widest] - next));
      widths[widest] -= take;
      over -= take;
    }
  };
  const headerMin = (i: number) => Math.max(COLUMN_MIN, Math.min(natural[i], displayWidth(columns?.[i]?.header ?? '')));
  const other = (i: number) => kind(i) !== 'title' && kind(i) !== 'key';
  shrink((i) => kind(i) === 'title', () => titleTarget(total));
  shrink(other, (i) => Math.max(headerMin(i), Math.min(natural[i], kind(i) === 'path' ? PATH_LEGIBLE : LEGIBLE)));
  shrink((i) => kind(i) === 'title', () => TITLE_MIN);
  shrink(other, headerMin);
  shrink((i) => kind(i) === 'title', () => COLUMN_MIN);
  shrink((i) => kind(i) !== 'key', () => COLUMN_MIN);
  // Below COLUMN_MIN only if that makes the table fit: where the keys alone are wider than the
  // screen, columns of one `…` would show nothing and fit nothing.
  const least = widths.reduce((sum, w, i) => sum + (kind(i) === 'key' ? w : 1), 0);
  if (least <= budget) shrink((i) => kind(i) !== 'key', () => 1);
  return widths;
}

/** Whether columns of these widths, GAP apart, fit `total` columns of screen. */
function fits(widths: readonly number[], total: number): boolean {
  return widths.reduce((a, b) => a + b, 0) + GAP * (widths.length - 1) <= total;
}

export class TableLayout {
  columns: Column[];
  widths: number[] = [];
  /** Headers of the columns left out to fit the terminal. */
  hidden: string[] = [];
  /** Their paths. */
  private hiddenPaths: string[] = [];
  private readonly chalk: ChalkInstance;

  constructor(private readonly paths: readonly string[], private readonly o: LayoutOptions) {
    this.columns = columnsOf(paths);
    this.chalk = painter(o.color);
  }

  /** The cells of one row. */
  cells(row: unknown): Cell[] {
    return this.columns.map((c) => cellOf(shownAt(row, c.path), c.kind, this.o, this.chalk));
  }

  /**
   * Fix the columns and their widths from a sample of rows. `whole`: every row the table will have,
   * when known (a column the same on all of them may be left out: dropUniform).
   */
  plan(sample: readonly unknown[], whole: readonly unknown[] = sample): void {
    if (this.o.dropUniform) this.dropUniform(whole);
    let natural = this.columns.map((c) => displayWidth(c.header));
    for (const row of sample) {
      const cells = this.cells(row);
      for (let i = 0; i < cells.length; i++) {
        const w = displayWidth(cells[i].text);
        if (w > natural[i]) natural[i] = w;
      }
    }
    const total = this.o.width ?? DEFAULT_WIDTH;
    let widths = fitWidths(natural, total, this.columns);
    while (this.o.mayHide && !(this.legible(widths, natural, total) && fits(widths, total))) {
      let drop = -1;
      for (let i = this.columns.length - 1; i > 0 && drop < 0; i--) if (this.columns[i].kind !== 'key' && this.columns[i].kind !== 'title') drop = i;
      if (drop < 0) break;
      // A file goes with its line: a line without its file means nothing.
      const gone = new Set([this.columns[drop].path, ...this.columns.filter((c) => companionOf(c.path) === this.columns[drop].path).map((c) => c.path)]);
      const order = this.paths.filter((p) => gone.has(p));
      this.hidden = [...this.columns.filter((c) => gone.has(c.path)).map((c) => c.header), ...this.hidden];
      this.hiddenPaths = [...order, ...this.hiddenPaths];
      natural = natural.filter((_, i) => !gone.has(this.columns[i].path));
      this.columns = this.columns.filter((c) => !gone.has(c.path));
      widths = fitWidths(natural, total, this.columns);
    }
    this.widths = widths;
    if (this.hidden.length) {
      this.o.note?.(`Not shown at ${total} columns: ${this.hidden.join(', ')}.`);
      this.o.note?.(`To see them: --columns ${this.narrower().join(',')}`);
    }
  }

  /**
   * Leave out the columns (of UNIFORM_KINDS) that read the same on every one of two or more rows,
   * and say them in one note: `Same on every row, not shown: STATUS open, BRANCH main.` At least one
   * column besides the keys stays.
   */
  private dropUniform(rows: readonly unknown[]): void {
    if (rows.length < 2) return;
    const same: Array<{ path: string; text: string }> = [];
    for (const c of this.columns) {
      if (!UNIFORM_KINDS.has(c.kind)) continue;
      const first = cellText(scalarText(shownAt(rows[0], c.path)));
      if (rows.every((r) => cellText(scalarText(shownAt(r, c.path))) === first)) same.push({ path: c.path, text: first });
    }
    const gone = new Set(same.map((s) => s.path));
    if (this.columns.every((c) => c.kind === 'key' || gone.has(c.path))) return;
    if (same.length === 0) return;
    this.o.note?.(`${SAME_ON_EVERY_ROW} ${same.map((s) => `${this.columns.find((c) => c.path === s.path)!.header} ${s.text === '' ? '(empty)' : s.text}`).join(', ')}.`);
    this.columns = this.columns.filter((c) => !gone.has(c.path));
  }

  /**
   * Columns that fit where the defaults did not: the keys, the ones left out, and the titles, in
   * order. With no key among them the first column stays (a vulnerability class, a date): rows
   * nothing names cannot be read.
   */
  private narrower(): string[] {
    const keys = this.columns.filter((c) => c.kind === 'key' || c.kind === 'title').map((c) => c.path);
    // A line is named with its file (`file,line`), even where the file was still shown.
    const companions = this.hiddenPaths.map(companionOf).filter((p): p is string => p !== undefined);
    const kept = new Set([...(keys.length ? keys : [this.paths[0]]), ...this.hiddenPaths, ...companions]);
    return this.paths.filter((p) => kept.has(p)).map((p) => nameOf(p));
  }

  private legible(widths: readonly number[], natural: readonly number[], total: number): boolean {
    return this.columns.every((c, i) => c.kind === 'key' || widths[i] >= Math.min(natural[i], c.kind === 'title' ? titleTarget(total) : LEGIBLE));
  }

  /** The header cells, clipped to their widths. */
  headerCells(): string[] {
    return this.columns.map((c, i) => this.chalk.bold(clip(c.header, this.widths[i])));
  }

  /** A row's cells cut to the planned widths (keys are never cut) and painted. */
  fitted(cells: readonly Cell[]): string[] {
    return cells.map((cell, i) => {
      const text = this.cut(cell.text, i);
      return cell.paint ? cell.paint(text) : text;
    });
  }

  /** A cell's text cut to its column: keys never, paths from the left, anything else from the right. */
  private cut(text: string, i: number): string {
    const kind = this.columns[i].kind;
    return kind === 'key' ? text : kind === 'path' ? clipPath(text, this.widths[i]) : clip(text, this.widths[i]);
  }

  headerLine(): string {
    return this.join(this.columns.map((c, i) => ({ text: clip(c.header, this.widths[i]), paint: (s: string) => this.chalk.bold(s) })), false);
  }

  /** One line of text (no newline). */
  line(row: unknown): string {
    return this.join(this.cells(row), true);
  }

  private join(cells: readonly Cell[], cut: boolean): string {
    let out = '';
    const last = cells.length - 1;
    for (let i = 0; i <= last; i++) {
      const c = cells[i];
      const text = cut ? this.cut(c.text, i) : c.text;
      const shown = c.paint ? c.paint(text) : text;
      out += i === last ? shown : shown + ' '.repeat(Math.max(0, this.widths[i] - displayWidth(text)) + GAP);
    }
    return out.trimEnd();
  }
}
