import { describe, expect, it } from 'vitest';
import { RawJson, jsonBytes } from '../../../src/sandbox/raw-json.js';

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
});
