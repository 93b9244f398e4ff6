/** Which number tokens a JSON double changes, and where they are (http/exact-numbers.ts). */
import { describe, expect, it } from 'vitest';
import { mayHoldInexact, changedByDouble, inexactIn, inexactTokens, noteInexact, splitInexact } from '../../../src/http/exact-numbers.js';

describe('changedByDouble: the value written back reads as another number', () => {
  it.each(['1e400', '-1e400', '1e-400', '-0', '-0.0', '12345678901234567890', '9007199254740993', '0.1000000000000000000001'])('%s is changed', (t) => {
    expect(changedByDouble(t)).toBe(true);
  });
  it.each(['0', '0.0', '0e5', '1', '1.0', '1E2', '100', '2.50', '9007199254740992', '0.30000000000000004', '1e21', '1e-7', '-3.25'])('%s is held', (t) => {
    expect(changedByDouble(t)).toBe(false);
  });
});

describe('mayHoldInexact: never false for a text that holds such a number', () => {
  it.each(['1e400', '-1e400', '1e-400', '-0', '-0.0', '-0.000', '12345678901234567890', '9007199254740993', '0.1000000000000000000001', '1234567890.123456789', '-0e0', '1E+400'])('[%s]', (t) => {
    expect(changedByDouble(t)).toBe(true);
    expect(mayHoldInexact(`{"a":"2026-01-05","x":[1,${t}]}`)).toBe(true);
    expect(mayHoldInexact(`{"x":${t}}`)).toBe(true);
  });
  it('false for held numbers and dates', () => {
    expect(mayHoldInexact('{"a":"2026-01-05T10:00:00Z","n":-0.5,"m":[-3,0,123456789012345,0.25,-10.01]}')).toBe(false);
  });
});

describe('inexactTokens / noteInexact: paths of the changed numbers', () => {
  const text = '{ "a": [1, {"b\\"c": 1e400}, 12345678901234567890], "s": "1e400 -0", "n": {"m": -0}, "ok": 1.5 }';

  it('names each by its path, strings and held numbers left alone', () => {
    expect(inexactTokens(text).map((t) => [t.keys, t.text])).toEqual([[['a', 1, 'b"c'], '1e400'], [['a', 2], '12345678901234567890'], [['n', 'm'], '-0']]);
    const data = JSON.parse(text);
    expect(noteInexact(text, data).map((n) => `${n.path}=${n.text}`)).toEqual(['a[1].b"c=1e400', 'a[2]=12345678901234567890', 'n.m=-0']);
    expect(inexactIn(data)).toHaveLength(3);
    expect(inexactIn(JSON.parse(text))).toBeUndefined();
  });

  it('splitInexact: a page\'s numbers recorded per item, paths from the item', () => {
    const page = '{"issues":[{"id":"a","c":1},{"id":"b","c":1e-400}],"t":1e400}';
    const data = JSON.parse(page) as { issues: object[] };
    noteInexact(page, data);
    splitInexact(data, 'issues');
    expect(inexactIn(data.issues[0])).toBeUndefined();
    expect(inexactIn(data.issues[1])?.map((n) => n.path)).toEqual(['c']);
  });
});
