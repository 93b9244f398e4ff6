/** The pager's set of seen ids: exactly a Map of strings to pages, in far fewer objects. */
import { describe, expect, it } from 'vitest';
import { IdSet } from '../../../src/listing/id-set.js';

describe('IdSet', () => {
  it('agrees with a Map over 200,000 adds of 100,000 ids (every id twice), through every growth', () => {
    const set = new IdSet();
    const map = new Map<string, number>();
    const ids = Array.from({ length: 100_000 }, (_, i) => (i % 7 === 0 ? `iss_${i.toString(16)}` : `${i * 2654435761 % 4294967296}`));
    // Checked by hand, not with expect() per add: 200,000 expect() calls cost over a second of CPU.
    ids.forEach((id, i) => {
      const seen = set.add(id, Math.floor(i / 500) + 1);
      if (seen !== undefined) expect.fail(`id ${id} (add ${i}): already seen on page ${seen}`);
      map.set(id, Math.floor(i / 500) + 1);
    });
    expect(set.size).toBe(100_000);
    for (let i = ids.length - 1; i >= 0; i -= 1) {
      if (set.add(ids[i], 999) !== map.get(ids[i])) expect.fail(`id ${ids[i]}: ${set.add(ids[i], 999)} != ${map.get(ids[i])}`);
    }
    expect(set.size).toBe(100_000);
  });

  it('ids differing in one unit, in length only, in case, or beyond Latin-1 are different ids', () => {
    const set = new IdSet();
    const ids = ['', 'a', 'A', 'aa', 'a\u0000', 'ab', 'ba', 'ü', 'u\u0308', '😀', '\ud83d', 'x'.repeat(5000), `${'x'.repeat(4999)}y`];
    ids.forEach((id, i) => expect(set.add(id, i), JSON.stringify(id)).toBeUndefined());
    ids.forEach((id, i) => expect(set.add(id, 100), JSON.stringify(id)).toBe(i));
  });
});
