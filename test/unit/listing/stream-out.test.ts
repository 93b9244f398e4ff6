import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { PIECE, itemWriter, type WriterOptions } from '../../../src/listing/stream-out.js';
import { write } from '../../../src/output/write.js';
import type { Format } from '../../../src/output/formats.js';

function capture(highWaterMark = 1 << 20) {
  const chunks: string[] = [];
  const stream = new Writable({
    highWaterMark,
    write(chunk, _enc, cb) { chunks.push(String(chunk)); setImmediate(cb); },
  });
  // The text once everything written so far has gone through.
  const text = async () => { await new Promise<void>((r) => stream.end(r)); return chunks.join(''); };
  return { stream, text };
}

function writer(format: Format, stdout: Writable, extra: Partial<WriterOptions> = {}) {
  const notes: string[] = [];
  const out: string[] = [];
  const w = itemWriter({
    format, stdout, columns: [], pretty: false,
    render: { pretty: false, color: false, width: 100 },
    sink: { out: (t) => out.push(t), note: (t) => notes.push(t) },
    ...extra,
  });
  return { w, notes, out };
}

const pages = [[{ id: 'a', n: 1 }, { id: 'b', n: 2 }], [], [{ id: 'c', n: 3, s: 'x,"y"' }]];

async function feed(w: ReturnType<typeof writer>['w']) {
  for (const p of pages) await w.page(p);
  await w.end();
}

describe('itemWriter', () => {
  it('ndjson: one object a line', async () => {
    const c = capture();
    await feed(writer('ndjson', c.stream).w);
    expect((await c.text()).trimEnd().split('\n').map((l) => JSON.parse(l).id)).toEqual(['a', 'b', 'c']);
  });

  it('json: a valid array written as it goes, also when empty and when pretty', async () => {
    const c = capture();
    await feed(writer('json', c.stream).w);
    expect(JSON.parse((await c.text()))).toEqual(pages.flat());
    const e = capture();
    const empty = writer('json', e.stream).w;
    await empty.page([]);
    await empty.end();
    expect(JSON.parse((await e.text()))).toEqual([]);
    const p = capture();
    await feed(writer('json', p.stream, { pretty: true }).w);
    const pretty = await p.text();
    expect(JSON.parse(pretty)).toEqual(pages.flat());
    expect(pretty).toContain('\n  {\n    "id": "a"');
  });

  it('csv: one header, then rows; columns from the first items when none are chosen', async () => {
    const c = capture();
    await feed(writer('csv', c.stream).w);
    expect((await c.text())).toBe('id,n\na,1\nb,2\nc,3\n');
    const d = capture();
    await feed(writer('csv', d.stream, { columns: ['id', 's'] }).w);
    expect((await d.text())).toBe('id,s\na,\nb,\nc,"x,""y"""\n');
  });

  it('table: widths from the first page, then each page streamed as it comes (nothing buffered)', async () => {
    const c = capture();
    const t = writer('table', c.stream, { columns: ['id', 'n', 's'] });
    await t.w.page(pages[0]);
    await t.w.page([{ id: 'c', n: 3, s: 'a text longer than its column' }]);
    await t.w.end();
    expect(t.out.join('')).toBe('');
    // The column of `s` was planned from page 1 (header width only): later text is cut to it.
    expect(await c.text()).toBe('ID  N  S\na   1\nb   2\nc   3  …\n');
    const e = writer('table', capture().stream, { columns: ['id'] });
    await e.w.page([]);
    await e.w.end();
    expect(e.notes).toEqual(['No results.']);
  });

  it('table: Ctrl-C stops a long page between two chunks', async () => {
    const c = capture();
    const controller = new AbortController();
    const t = writer('table', c.stream, { columns: ['id'], signal: controller.signal });
    const items = Array.from({ length: 10_000 }, (_, i) => ({ id: `iss_${i}` }));
    setImmediate(() => controller.abort('SIGINT'));
    await expect(t.w.page(items)).rejects.toThrow('interrupted by SIGINT');
    const lines = (await c.text()).split('\n').filter(Boolean);
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.length).toBeLessThan(1000);
  });

  it('writes a big page in pieces of about 64 kB, never as one string (V8 keeps large strings until a full collection)', async () => {
    const items = Array.from({ length: 500 }, (_, i) => ({ id: `iss_${i}`, text: 'x'.repeat(1800) }));
    for (const format of ['ndjson', 'json', 'csv'] as const) {
      const chunks: string[] = [];
      const stream = new Writable({ write(chunk, _enc, cb) { chunks.push(String(chunk)); cb(); } });
      const { w } = writer(format, stream, { columns: format === 'csv' ? ['id', 'text'] : [] });
      await w.page(items);
      await w.end();
      const text = chunks.join('');
      expect(text.length).toBeGreaterThan(900_000);
      expect(chunks.length, format).toBeGreaterThan(10);
      for (const c of chunks) expect(c.length, format).toBeLessThan(PIECE + 2000);
      if (format === 'ndjson') expect(text.trimEnd().split('\n').map((l) => JSON.parse(l).id)).toEqual(items.map((i) => i.id));
      if (format === 'json') expect(JSON.parse(text)).toEqual(items);
      if (format === 'csv') expect(text.split('\n').length).toBe(502);
    }
  });

  it('waits for a full stream to drain before going on (backpressure)', async () => {
    let pending: (() => void) | undefined;
    const chunks: string[] = [];
    const slow = new Writable({
      highWaterMark: 4,
      write(chunk, _enc, cb) { chunks.push(String(chunk)); pending = cb; },
    });
    let done = false;
    const p = write(slow, 'more than four bytes').then(() => { done = true; });
    await new Promise((r) => setImmediate(r));
    expect(done).toBe(false);
    pending!();
    await p;
    expect(done).toBe(true);
    expect(chunks).toEqual(['more than four bytes']);
  });
});
