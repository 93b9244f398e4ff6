/**
 * Human tables. A table that fits on a screen is drawn with cli-table3 from the widths svc's layout
 * planned (layout.ts); a longer one (or a listing that streams in with --all) is written by the
 * layout itself, line by line, in chunks that let Ctrl-C through: cli-table3 lays out every row
 * against every other, which is quadratic in rows (1,000 rows took a second, 38,000 froze svc).
 */
import Table from 'cli-table3';
import { InterruptedError } from '../core/errors.js';
import { cellOf, painter } from './cells.js';
import { kindOf } from './columns.js';
import { GAP, TableLayout, DEFAULT_WIDTH, type LayoutOptions } from './layout.js';
import { leafPaths, shownAt } from './field-paths.js';
import { cellText } from '../core/sanitize.js';
import { displayWidth, clip } from './text-width.js';

type TableOptions = Partial<LayoutOptions> & { color: boolean };

/** Up to this many rows a table is drawn by cli-table3; beyond, by the streaming layout. */
export const SCREENFUL = 100;
/** Rows whose cells fix the widths of a streamed table (the first page). */
const SAMPLE_ROWS = 500;
/** Rows written between two turns of the event loop (when Ctrl-C and progress get their turn). */
const CHUNK_ROWS = 100;

const PLAIN = {
  top: '', 'top-mid': '', 'top-left': '', 'top-right': '', bottom: '', 'bottom-mid': '', 'bottom-left': '', 'bottom-right': '',
  left: '', 'left-mid': '', mid: '', 'mid-mid': '', right: '', 'right-mid': '', middle: ' '.repeat(GAP),
};

function layoutOptions(o: TableOptions): LayoutOptions {
  return { pretty: o.pretty ?? false, color: o.color, now: o.now ?? Date.now(), width: o.width, mayHide: o.mayHide, note: o.note, dropUniform: o.dropUniform };
}

/** A table that fits on a screen, drawn by cli-table3. */
export function rowsTable(rows: readonly unknown[], columns: readonly string[], o: TableOptions): string {
  const layout = new TableLayout(columns, layoutOptions(o));
  layout.plan(rows);
  const cells = rows.map((r) => layout.cells(r));
  const table = new Table({
    chars: PLAIN,
    style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0 },
    head: layout.headerCells(),
    // A key wider than its planned width (it never is cut) widens its column.
    colWidths: layout.widths.map((w, i) => (layout.columns[i].kind === 'key' ? Math.max(w, ...cells.map((c) => displayWidth(c[i].text))) : w)),
    wordWrap: false,
    truncate: '…',
  });
  for (const c of cells) table.push(layout.fitted(c));
  return table.toString().split('\n').map((l) => l.trimEnd()).join('\n') + '\n';
}

interface StreamSink {
  /** Write text, waiting while the reader is slow. */
  write(text: string): Promise<void>;
  /** Aborted on Ctrl-C: writing stops between two chunks. */
  signal?: AbortSignal;
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * A table written as its rows arrive: widths fixed by the first rows it is given (up to
 * SAMPLE_ROWS), then every row one line. Linear in rows; yields to the event loop every CHUNK_ROWS
 * rows, so an interrupt is handled within one chunk.
 */
export class TableStream {
  private readonly layout: TableLayout;
  private started = false;

  constructor(columns: readonly string[], o: TableOptions, private readonly sink: StreamSink) {
    this.layout = new TableLayout(columns, layoutOptions(o));
  }

  async rows(rows: readonly unknown[]): Promise<void> {
    if (rows.length === 0) return;
    if (!this.started) {
      this.started = true;
      // Widths from the first rows; a column the same on every row is looked for in all of this first
      // call's rows (dropUniform is set only where they are the whole list).
      this.layout.plan(rows.slice(0, SAMPLE_ROWS), rows);
      await this.sink.write(this.layout.headerLine() + '\n');
    }
    for (let at = 0; at < rows.length; at += CHUNK_ROWS) {
      this.stopIfInterrupted();
      let text = '';
      const end = Math.min(rows.length, at + CHUNK_ROWS);
      for (let i = at; i < end; i++) text += this.layout.line(rows[i]) + '\n';
      await this.sink.write(text);
      await nextTurn();
    }
    this.stopIfInterrupted();
  }

  /** Whether any row was written. */
  get any(): boolean {
    return this.started;
  }

  private stopIfInterrupted(): void {
    const s = this.sink.signal;
    if (s?.aborted) throw new InterruptedError(s.reason === 'SIGTERM' ? 'SIGTERM' : 'SIGINT');
  }
}

/** A record as aligned key/value lines (for records no detail view is declared for). */
export function recordTable(value: unknown, columns: readonly string[], o: TableOptions): string {
  const keys = (columns.length ? [...columns] : leafPaths(value)).map(cellText);
  const lo = layoutOptions(o);
  const chalk = painter(o.color);
  const width = Math.max(...keys.map((k) => displayWidth(k)));
  const valueMax = Math.max(20, (o.width ?? DEFAULT_WIDTH) - width - GAP);
  return keys.map((k) => {
    const cell = cellOf(shownAt(value, k), kindOf(k), lo, chalk);
    const text = clip(cell.text, valueMax);
    return `${chalk.bold(k)}${' '.repeat(width - displayWidth(k) + GAP)}${cell.paint ? cell.paint(text) : text}`.trimEnd();
  }).join('\n') + '\n';
}

