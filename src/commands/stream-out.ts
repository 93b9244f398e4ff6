/**
 * Writes the items of a long listing to stdout page by page, without holding them all: NDJSON, a JSON
 * array written as it goes, or CSV. Each page is one write; when stdout is full (a slow pipe) the next
 * page waits for it to drain. A table cannot be drawn before its widths are known, so it buffers.
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
    case 'ndjson':
      return {
        page: async (items) => {
          if (items.length === 0) return;
          let text = '';
          for (const item of items) text += JSON.stringify(item) + '\n';
          await write(o.stdout, text);
        },
        end: async () => {},
      };
    case 'json': {
      // A valid JSON array, one item a line; pretty (indented items) on a terminal.
      let started = false;
      let any = false;
      const open = async () => { if (!started) { started = true; await write(o.stdout, '['); } };
      return {
        page: async (items) => {
          await open();
          let text = '';
          for (const item of items) {
            const json = o.pretty ? JSON.stringify(item, null, 2).replace(/\n/g, '\n  ') : JSON.stringify(item);
            text += (any ? ',\n' : '\n') + (o.pretty ? '  ' : '') + json;
            any = true;
          }
          await write(o.stdout, text);
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
      return {
        page: async (items) => {
          if (!columns && items.length === 0) return;
          columns ??= autoColumns(items);
          let text = headed ? '' : csvHeader(columns);
          headed = true;
          for (const item of items) text += csvRow(asRow(item), columns);
          await write(o.stdout, text);
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
