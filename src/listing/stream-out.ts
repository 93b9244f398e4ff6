/**
 * Writes the items of a long listing to stdout page by page, without holding them all: NDJSON, a JSON
 * array written as it goes, or CSV. A page is written in pieces of ~64 kB (see PIECE); when stdout is
 * full (a slow pipe) the next piece waits for it to drain. A table cannot be drawn before its widths
 * are known, so it buffers.
 */
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import type { Format } from '../output/formats.js';
import { csvHeader, csvRow } from '../output/csv.js';
import { autoColumns, render, type RenderOptions, type Sink } from '../output/render.js';

export interface ItemWriter {
  page(items: unknown[]): Promise<void>;
  end(): Promise<void>;
}

/** Write and, when the stream's buffer is full, wait until it drains. */
export async function write(stream: Writable, text: string): Promise<void> {
  if (text === '' || stream.write(text)) return;
  await once(stream, 'drain');
}

/**
 * Text is written in pieces of about this many characters: a page's text in one string would be a
 * large object (over 128 kB, ~1 MB for 500 issues), which V8 keeps in the old generation until a
 * full collection, so a long listing would pile them up; small strings die young.
 */
export const PIECE = 64 * 1024;

/** Collects text and writes it in pieces of about PIECE characters. */
export class PieceWriter {
  private text = '';
  constructor(private readonly stream: Writable) {}
  async add(s: string): Promise<void> {
    this.text += s;
    if (this.text.length >= PIECE) await this.flush();
  }
  async flush(): Promise<void> {
    const t = this.text;
    this.text = '';
    await write(this.stream, t);
  }
}

export interface WriterOptions {
  format: Format;
  stdout: Writable;
  /** Table/CSV columns (empty: derived from the first items). */
  columns: string[];
  /** Pretty JSON (on a terminal). */
  pretty: boolean;
  /** For the buffered table. */
  render: Omit<RenderOptions, 'format' | 'columns' | 'rowsPath'>;
  sink: Sink;
}

const asRow = (row: unknown) => (row !== null && typeof row === 'object' ? row : { value: row });

export function itemWriter(o: WriterOptions): ItemWriter {
  switch (o.format) {
    case 'ndjson': {
      const out = new PieceWriter(o.stdout);
      return {
        page: async (items) => {
          for (const item of items) await out.add(JSON.stringify(item) + '\n');
          await out.flush();
        },
        end: async () => {},
      };
    }
    case 'json': {
      // A valid JSON array, one item a line; pretty (indented items) on a terminal.
      let started = false;
      let any = false;
      const open = async () => { if (!started) { started = true; await write(o.stdout, '['); } };
      const out = new PieceWriter(o.stdout);
      return {
        page: async (items) => {
          await open();
          for (const item of items) {
            const json = o.pretty ? JSON.stringify(item, null, 2).replace(/\n/g, '\n  ') : JSON.stringify(item);
            await out.add((any ? ',\n' : '\n') + (o.pretty ? '  ' : '') + json);
            any = true;
          }
          await out.flush();
        },
        end: async () => {
          await open();
          await write(o.stdout, any ? '\n]\n' : ']\n');
        },
      };
    }
    case 'csv': {
      let columns: string[] | undefined = o.columns.length ? o.columns : undefined;
      let headed = false;
      const out = new PieceWriter(o.stdout);
      return {
        page: async (items) => {
          if (!columns && items.length === 0) return;
          columns ??= autoColumns(items);
          if (!headed) await out.add(csvHeader(columns));
          headed = true;
          for (const item of items) await out.add(csvRow(asRow(item), columns!));
          await out.flush();
        },
        end: async () => {
          if (!headed) await write(o.stdout, csvHeader(columns ?? ['value']));
        },
      };
    }
    case 'table': {
      const rows: unknown[] = [];
      return {
        page: async (items) => { for (const item of items) rows.push(item); },
        end: () => render(rows, { ...o.render, format: 'table', columns: o.columns }, o.sink),
      };
    }
  }
}
