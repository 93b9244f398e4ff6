/** NDJSON copies each item as the service sent it: only when that is exactly what JSON.parse saw. */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { itemSpans } from '../../../src/listing/item-spans.js';
import { itemWriter, ndjsonFromSource } from '../../../src/listing/stream-out.js';

const source = (text: string) => ({ bytes: Buffer.from(text), key: 'issues' });
const items = (text: string) => (JSON.parse(text) as { issues: unknown[] }).issues;
/** What the copy gives, and what serializing the parsed items gives. */
const both = (text: string) => ({ copied: ndjsonFromSource(items(text), source(text))?.toString(), serialized: items(text).map((i) => JSON.stringify(i) + '\n').join('') });

describe('item spans', () => {
  it('finds every item, whatever the strings hold', () => {
    const list = [
      { id: 'a', t: 'brackets ] } [ { and "quotes" and \\ backslashes \\\\"' },
      { id: 'b', nested: { deep: [1, [2, { x: '}' }]], n: null, ok: true, no: false }, e: -1.5e3 },
      { id: 'c', u: 'ünïcödé ✓ \u2028 \u001b[31m' },
      'a string item', 42, null, [], {},
    ];
    const text = JSON.stringify({ totalCount: 8, issues: list, page: 1 });
    const { copied, serialized } = both(text);
    expect(copied).toBe(serialized);
    expect(itemSpans(Buffer.from(text), 'issues')!.bounds).toHaveLength(16);
  });

  it('an empty list, the list first or last, other top-level values of every kind', () => {
    expect(both('{"issues":[]}').copied).toBe('');
    for (const text of ['{"issues":[{"id":1}],"a":{"b":[1,"]"]},"c":"x","d":null,"e":1.5}', '{"a":[{"issues":[9]}],"b":"\\"issues\\"","issues":[{"id":1},{"id":2}]}']) {
      const { copied, serialized } = both(text);
      expect(copied, text).toBe(serialized);
    }
  });

  it('serializes an item sent with white space (NDJSON needs one a line), copies the others', () => {
    const text = '{ "issues" : [ {"id":1}, {\n  "id": 2,\n  "t": "a b"\n}\t, {"id":"x y"} ] , "totalCount" : 3 }';
    const { copied, serialized } = both(text);
    expect(copied).toBe(serialized);
    expect(itemSpans(Buffer.from(text), 'issues')!.spaced).toEqual(new Set([1]));
  });

  it('declines where a copy could differ from what JSON.parse kept', () => {
    // The list twice: JSON.parse keeps the last.
    expect(itemSpans(Buffer.from('{"issues":[{"id":1}],"issues":[{"id":2}]}'), 'issues')).toBeUndefined();
    // A key written with escapes may be the list.
    expect(itemSpans(Buffer.from('{"issues":[{"id":1}],"iss\\u0075es":[{"id":2}]}'), 'issues')).toBeUndefined();
    // No such list, not a list, not an object.
    expect(itemSpans(Buffer.from('{"other":[1]}'), 'issues')).toBeUndefined();
    expect(itemSpans(Buffer.from('{"issues":{"a":1}}'), 'issues')).toBeUndefined();
    expect(itemSpans(Buffer.from('[{"issues":[1]}]'), 'issues')).toBeUndefined();
    // Bytes that do not hold the parsed items: the caller serializes them.
    expect(ndjsonFromSource([{ id: 1 }, { id: 2 }], source('{"issues":[{"id":1}]}'))).toBeUndefined();
  });

  it('the NDJSON writer writes the copy, and serializes when it has no bytes', async () => {
    const text = JSON.stringify({ issues: [{ id: 'a', v: 'x' }, { id: 'b' }] });
    for (const src of [source(text), undefined]) {
      const stdout = new PassThrough();
      const chunks: Buffer[] = [];
      stdout.on('data', (c: Buffer) => chunks.push(Buffer.from(c)));
      const w = itemWriter({ format: 'ndjson', stdout, columns: [], pretty: false, copyBytes: true, render: { pretty: false, color: false }, sink: { out: () => {}, note: () => {} } });
      await w.page(items(text), src);
      await w.end();
      expect(Buffer.concat(chunks).toString()).toBe('{"id":"a","v":"x"}\n{"id":"b"}\n');
    }
  });
});
