/**
 * The streaming JSON writer gives exactly JSON.stringify's bytes (the whole-string writer), for
 * generated values of every shape a report has, long lists and lazy lists included.
 */
import { describe, expect, it } from 'vitest';
import { LazyList, jsonChunks } from '../../../src/core/json-stream.js';

function rng(seed: number) {
  return () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
}

/** Values of every kind JSON has, and of some it leaves out (undefined, functions). */
function generate(r: () => number, depth: number): unknown {
  const k = Math.floor(r() * (depth > 3 ? 7 : 11));
  switch (k) {
    case 0: return null;
    case 1: return r() < 0.5;
    case 2: return [0, -0, 1.5e300, -12, 0.1, 2 ** 53, NaN, Infinity][Math.floor(r() * 8)];
    case 3: return ['', 'a\nb', 'quote " and \\ back', 'é ✓ \u2028 \u0000', '\ud800 lone', '{"json":"text"}'][Math.floor(r() * 6)];
    case 4: return undefined;
    case 5: return () => 1;
    case 6: return new Date(Math.floor(r() * 1e12));
    case 7: case 8: {
      // Long lists (written item by item) near the top only: 300 items of 300 items would not end.
      const n = depth < 2 && r() < 0.2 ? 300 + Math.floor(r() * 50) : Math.floor(r() * 5);
      return Array.from({ length: n }, () => generate(r, depth + 1));
    }
    case 9: {
      const n = depth < 2 && r() < 0.2 ? 260 + Math.floor(r() * 20) : Math.floor(r() * 4);
      const items = Array.from({ length: n }, () => generate(r, depth + 1));
      return new LazyList(() => items);
    }
    default: {
      const o: Record<string, unknown> = {};
      for (let i = Math.floor(r() * 6); i > 0; i--) o[['id', 'level', 'a b', '"q"', '0', '10', 'ñ'][Math.floor(r() * 7)] + (i % 3 ? '' : i)] = generate(r, depth + 1);
      return o;
    }
  }
}

describe('jsonChunks', () => {
  it.each([0, 2, 4])('gives JSON.stringify(value, null, %i) byte for byte on 150 generated values', (indent) => {
    const r = rng(11 + indent);
    for (let i = 0; i < 150; i++) {
      const value = { root: generate(r, 0), list: generate(r, 1), [`k${i}`]: generate(r, 2) };
      expect([...jsonChunks(value, indent)].join('')).toBe(JSON.stringify(value, null, indent));
    }
  });

  it('writes a long list item by item and makes a lazy list\'s items only while writing', () => {
    let made = 0;
    const lazy = new LazyList(function* () { for (let i = 0; i < 1000; i++) { made++; yield { id: `i${i}`, n: i }; } });
    const chunks = jsonChunks({ runs: [{ results: lazy, columnKind: 'x' }] }, 2);
    let text = '';
    let pieces = 0;
    // How many times "id" is in the text so far, counted in each new piece (with the 3 characters
    // before it, where one could begin) instead of splitting the whole text again for every piece.
    let ids = 0;
    for (const c of chunks) {
      ids += (text.slice(-3) + c).split('"id"').length - 1;
      text += c;
      pieces++;
      // Never more than the item being written exists ahead of the text (expect() only when it fails: 1,000+ pieces).
      if (made > ids + 1) expect(made).toBeLessThanOrEqual(ids + 1);
    }
    expect(ids).toBe(text.split('"id"').length - 1);
    expect(pieces).toBeGreaterThan(1000);
    expect(text).toBe(JSON.stringify({ runs: [{ results: lazy, columnKind: 'x' }] }, null, 2));
  });

  it('an empty lazy list, an object of only left-out values, a top-level list', () => {
    for (const value of [{ a: new LazyList(() => []) }, { a: { x: undefined, f: () => 1 } }, Array.from({ length: 500 }, (_, i) => (i % 7 ? i : undefined))]) {
      for (const indent of [0, 2]) expect([...jsonChunks(value, indent)].join('')).toBe(JSON.stringify(value, null, indent));
    }
  });
});
