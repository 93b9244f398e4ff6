import { describe, expect, it } from 'vitest';
import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { RawJson, jsonBytes } from '../../../src/sandbox/raw-json.js';
import { sendJson } from '../../../src/sandbox/server.js';

const raw = (v: unknown) => new RawJson(Buffer.from(JSON.stringify(v)));

describe('jsonBytes', () => {
  it('writes what JSON.stringify writes, with arrays of made-once JSON copied as they are', () => {
    const items = [{ id: 'iss_1', title: 'a "quoted" ünïcode title', n: 1.5, tags: ['x'] }, { id: 'iss_2', nested: { a: null } }];
    const payload = { issues: items.map(raw), totalCount: 2, skip: undefined, f: () => 1, page: 1, meta: { a: [1, 2] } };
    const want = JSON.stringify({ issues: items, totalCount: 2, page: 1, meta: { a: [1, 2] } });
    expect(jsonBytes(payload).toString()).toBe(want);
    // The same value when something serializes the payload the ordinary way.
    expect(JSON.stringify(payload)).toBe(want);
  });

  it('the array first, last, alone, or empty', () => {
    const one = [raw({ a: 1 })];
    expect(jsonBytes({ issues: one }).toString()).toBe('{"issues":[{"a":1}]}');
    expect(jsonBytes({ total: 1, issues: one }).toString()).toBe('{"total":1,"issues":[{"a":1}]}');
    expect(jsonBytes({ issues: [], total: 0 }).toString()).toBe('{"issues":[],"total":0}');
  });

  it('anything else is JSON.stringify', () => {
    for (const v of [null, 1, 'x', [1, 2], { error: 'no' }, {}]) expect(jsonBytes(v).toString()).toBe(JSON.stringify(v));
  });

  it('into: the same bytes, copied into the buffer it hands out (a reused one, larger than needed)', () => {
    const payload = { issues: [raw({ id: 'a' }), raw({ id: 'b' })], totalCount: 2 };
    const big = Buffer.alloc(1000, 0x78);
    const sizes: number[] = [];
    const out = jsonBytes(payload, (size) => { sizes.push(size); return big; });
    expect(out.toString()).toBe(JSON.stringify({ issues: [{ id: 'a' }, { id: 'b' }], totalCount: 2 }));
    expect(sizes).toEqual([out.length]);
    expect(out.buffer).toBe(big.buffer);
  });
});

describe('sendJson', () => {
  /** A response that keeps what it was given and finishes only when told. */
  const response = () => Object.assign(new EventEmitter(), {
    destroyed: false,
    sent: undefined as Buffer | undefined,
    writeHead() { return this; },
    end(b: Buffer) { this.sent = b; },
  });
  const page = (id: string) => ({ issues: Array.from({ length: 50 }, (_, i) => raw({ id: `${id}${i}`, t: 'x'.repeat(100) })) });
  const text = (id: string) => JSON.stringify({ issues: Array.from({ length: 50 }, (_, i) => ({ id: `${id}${i}`, t: 'x'.repeat(100) })) });

  it('a buffer serves another answer only after its response has finished (or closed)', () => {
    const a = response();
    sendJson(a as unknown as ServerResponse, 200, page('a'));
    // a is still being sent: b gets another buffer, and a's bytes stay as they were.
    const b = response();
    sendJson(b as unknown as ServerResponse, 200, page('b'));
    expect(a.sent!.toString()).toBe(text('a'));
    expect(b.sent!.buffer).not.toBe(a.sent!.buffer);
    // Once a has finished, its buffer is used again.
    a.emit('finish');
    a.emit('close');
    const c = response();
    sendJson(c as unknown as ServerResponse, 200, page('c'));
    expect(c.sent!.buffer).toBe(a.sent!.buffer);
    expect(c.sent!.toString()).toBe(text('c'));
    expect(b.sent!.toString()).toBe(text('b'));
    b.emit('close');
    c.emit('finish');
  });
});
