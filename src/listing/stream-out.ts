/**
 * Writes the items of a long listing to stdout page by page, without holding them all: NDJSON, a JSON
 * array written as it goes, or CSV. A page is written in pieces of ~64 kB (see PIECE); when stdout is
 * full (a slow pipe) the next piece waits for it to drain. A table takes its widths from the first
 * page and streams too.
 */
import type { Writable } from 'node:stream';
import { write, writeOut } from '../output/write.js';
import type { Format } from '../output/formats.js';
import { csvHeader, csvRow, readableHeaders } from '../output/csv.js';
import { itemSpans, type Spans } from './item-spans.js';
import { autoColumns, tableRenderers, warnInexact, type RenderOptions, type Sink } from '../output/render.js';
import { exactStringify, projectRowExact, withServiceText } from '../output/exact-json.js';
import { jqText, jqValues, type JqMode } from '../output/jq.js';
import type { TableStream } from '../output/table.js';
import { compactItems, type PageSource } from './page-decode.js';
import { terminalJson } from '../core/sanitize.js';

export interface ItemWriter {
  /** `source`: the bytes the page was parsed from and the key of its item list (NDJSON and JSON copy items from them). */
  page(items: unknown[], source?: PageSource): Promise<void>;
  end(): Promise<void>;
}

/**
 * Text is written in pieces of about this many characters: a page's text in one string would be a
 * large object (over 128 kB, ~1 MB for 500 issues), which V8 keeps in the old generation until a
 * full collection, so a long listing would pile them up; small strings die young.
 */
export const PIECE = 64 * 1024;

/** Collects text and writes it in pieces of about PIECE characters. */
class PieceWriter {
  private text = '';
  constructor(private readonly stream: Writable, private readonly signal?: AbortSignal) {}
  async add(s: string): Promise<void> {
    this.text += s;
    if (this.text.length >= PIECE) await this.flush();
  }
  async flush(): Promise<void> {
    const t = this.text;
    this.text = '';
    await write(this.stream, t, this.signal);
  }
}

export interface WriterOptions {
  format: Format;
  stdout: Writable;
  /** Table/CSV columns (empty: derived from the first items). */
  columns: string[];
  /** The names given to --columns, as typed: the CSV header (else readable headers). */
  names?: string[];
  /** Pretty JSON (on a terminal). */
  pretty: boolean;
  /** --columns was given: JSON and NDJSON items are cut down to the columns. */
  project?: boolean;
  /** --jq: the expression runs on each item (JSON and NDJSON alike), its results streamed. */
  jq?: string;
  /** How a failing expression is explained (the per-item form). */
  jqMode?: JqMode;
  /**
   * NDJSON and JSON are the page's own bytes where they can be (ndjsonFromSource, jsonMembersFromSource):
   * only in pipes and files, without --columns and --jq. The pages are then decoded slim
   * (page-decode.ts), so this must agree with that.
   */
  copyBytes?: boolean;
  /** For the table. */
  render: Omit<RenderOptions, 'format' | 'columns' | 'rowsPath'>;
  sink: Sink;
  /** Ctrl-C: a table stops between two chunks, a wait for a slow reader ends. */
  signal?: AbortSignal;
  /** Wraps each write of table rows (the progress line is taken down and put back around it). */
  around?: (fn: () => Promise<void>) => Promise<void>;
}

const NEWLINE = 0x0a;

/**
 * A page as NDJSON bytes, each item as the service sent it (no serializing, no UTF-8 encoding); an
 * item sent with white space between its tokens is serialized instead (its numbers a double does not
 * hold as the service wrote them: the page was decoded with them recorded). Undefined when the bytes
 * do not hold exactly these items (see item-spans.ts): the caller then serializes them all.
 *
 * When the items are separated by single commas (compact JSON, as services send), the page's own
 * bytes become the output: each comma between two items, and the byte after the last item, are
 * overwritten with a newline, and the run of items is returned as a view of the page's bytes (no
 * copy, nothing allocated). So `source.bytes` must be the caller's to change, and not read again.
 */
export function ndjsonFromSource(items: unknown[], source: PageSource): Buffer | undefined {
  const spans = source.spans ?? itemSpans(source.bytes, source.key);
  if (!spans || spans.bounds.length !== items.length * 2) return undefined;
  const b = spans.bounds;
  const bytes = source.bytes;
  if (items.length === 0) return Buffer.alloc(0);
  if (compactItems(spans)) {
    for (let k = 1; k < items.length; k++) bytes[b[2 * k] - 1] = NEWLINE;
    const end = b[b.length - 1];
    bytes[end] = NEWLINE;
    return bytes.subarray(b[0], end + 1);
  }
  return joinItems(items, source.bytes, spans, () => '', '\n');
}

/**
 * A page as the members of `-o json`'s array, each item as the service sent it (as ndjsonFromSource,
 * but copied: each item after a newline, and after a comma unless it is the array's first). Undefined
 * when the bytes do not hold exactly these items.
 */
export function jsonMembersFromSource(items: unknown[], source: PageSource, first: boolean): Buffer | undefined {
  const spans = source.spans ?? itemSpans(source.bytes, source.key);
  if (!spans || spans.bounds.length !== items.length * 2) return undefined;
  return joinItems(items, source.bytes, spans, (k) => (first && k === 0 ? '\n' : ',\n'), '');
}

/** The items' bytes, each between `before(k)` and `after`; an item sent with white space serialized. */
function joinItems(items: unknown[], bytes: Buffer, spans: Spans, before: (k: number) => string, after: string): Buffer {
  const b = spans.bounds;
  const again = new Map<number, Buffer>();
  let size = 0;
  for (let k = 0; k < items.length; k++) {
    size += before(k).length + after.length;
    if (spans.spaced.has(k)) {
      const s = Buffer.from(exactStringify(items[k]));
      again.set(k, s);
      size += s.length;
    } else {
      size += b[2 * k + 1] - b[2 * k];
    }
  }
  const out = Buffer.allocUnsafe(size);
  let at = 0;
  for (let k = 0; k < items.length; k++) {
    at += out.write(before(k), at, 'latin1');
    const s = again.get(k);
    at += s ? s.copy(out, at) : bytes.copy(out, at, b[2 * k], b[2 * k + 1]);
    at += out.write(after, at, 'latin1');
  }
  return out;
}

const asRow = (row: unknown) => (row !== null && typeof row === 'object' ? row : { value: row });

export function itemWriter(o: WriterOptions): ItemWriter {
  const shape = (item: unknown) => (o.project ? projectRowExact(item, o.columns) : item);
  const filtered = async (data: unknown) => {
    return jqText(await jqValues(data, o.jq!, o.jqMode), o.pretty);
  };
  // A number a double does not hold (http/exact-numbers.ts): JSON writes the service's text; --jq
  // cannot, and says so; a table and CSV show the text.
  const warned = (item: unknown) => { warnInexact(item, o, o.sink); return item; };
  switch (o.format) {
    case 'ndjson': {
      const out = new PieceWriter(o.stdout, o.signal);
      return {
        page: async (items, source) => {
          // Items as the service sent them, unless they are cut down (--columns) or filtered (--jq).
          const copied = o.copyBytes && source && ndjsonFromSource(items, source);
          if (copied) {
            // Bytes live outside V8's heap: one write of the page keeps nothing large on it. They
            // may be the page's own (pooled) buffer: wait until the stream has taken them.
            await writeOut(o.stdout, copied, o.signal);
            return;
          }
          const text = (item: unknown) => {
            const json = exactStringify(shape(warned(item)), item);
            return o.pretty ? terminalJson(json) : json;
          };
          for (const item of items) await out.add(o.jq ? await filtered(shape(warned(item))) : text(item) + '\n');
          await out.flush();
        },
        end: async () => {},
      };
    }
    case 'json': {
      if (o.jq) {
        return {
          // Each item on its own (as jq -c over NDJSON): `--all --jq .id` prints every id.
          page: async (items) => {
            let text = '';
            for (const item of items) text += await filtered(shape(warned(item)));
            if (text) await write(o.stdout, text, o.signal);
          },
          end: async () => {},
        };
      }
      // A valid JSON array, one item a line; pretty (indented items) on a terminal.
      let started = false;
      let any = false;
      const open = async () => { if (!started) { started = true; await write(o.stdout, '[', o.signal); } };
      const out = new PieceWriter(o.stdout, o.signal);
      return {
        page: async (items, source) => {
          await open();
          // Items as the service sent them (a pipe or a file, not cut down or filtered), as NDJSON.
          const copied = o.copyBytes && source && jsonMembersFromSource(items, source, !any);
          if (copied) {
            await writeOut(o.stdout, copied, o.signal);
            any ||= items.length > 0;
            return;
          }
          for (const raw of items) {
            const item = shape(warned(raw));
            const json = o.pretty ? terminalJson(exactStringify(item, raw, 2).replace(/\n/g, '\n  ')) : exactStringify(item, raw);
            await out.add((any ? ',\n' : '\n') + (o.pretty ? '  ' : '') + json);
            any = true;
          }
          await out.flush();
        },
        end: async () => {
          await open();
          await write(o.stdout, any ? '\n]\n' : ']\n', o.signal);
        },
      };
    }
    case 'csv': {
      let columns: string[] | undefined = o.columns.length ? o.columns : undefined;
      let headed = false;
      const out = new PieceWriter(o.stdout, o.signal);
      return {
        page: async (items) => {
          if (!columns && items.length === 0) return;
          columns ??= autoColumns(items);
          if (!headed) await out.add(csvHeader(columns, o.names ?? readableHeaders(columns)));
          headed = true;
          for (const item of items) await out.add(csvRow(asRow(withServiceText(item)), columns!));
          await out.flush();
        },
        end: async () => {
          if (!headed) await write(o.stdout, csvHeader(columns ?? ['value'], o.names ?? readableHeaders(columns ?? ['value'])), o.signal);
        },
      };
    }
    case 'table': {
      // Widths from the first page, then each page written as it comes: linear in rows, memory flat.
      let table: TableStream | undefined;
      const around = o.around ?? ((fn) => fn());
      const sink = { write: (t: string) => around(() => write(o.stdout, t, o.signal)), signal: o.signal };
      return {
        page: async (items) => {
          if (items.length === 0) return;
          if (!table) {
            const { TableStream } = await tableRenderers();
            table = new TableStream(o.columns.length ? o.columns : autoColumns(items), { ...o.render, mayHide: !o.project, note: (l) => o.sink.note(l) }, sink);
          }
          await table.rows(items.map((i) => asRow(withServiceText(i))));
        },
        end: async () => { if (!table) o.sink.note('No results.'); },
      };
    }
  }
}
