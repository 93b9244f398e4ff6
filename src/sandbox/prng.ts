/** A small seeded PRNG (mulberry32) and helpers: the same seed always gives the same data. */

export type Rng = () => number;

/** mulberry32: 32-bit state, good enough for test data, fast, no dependency. */
export function mulberry32(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Mix numbers into one 32-bit seed (for per-record generators: `mix(seed, kind, index)`). */
export function mix(...parts: number[]): number {
  let h = 0x811c9dc5;
  for (const p of parts) {
    h = Math.imul(h ^ (p >>> 0), 0x01000193) >>> 0;
    h ^= h >>> 13;
    h = Math.imul(h, 0x5bd1e995) >>> 0;
    h ^= h >>> 15;
  }
  return h >>> 0;
}

/** A string as a 32-bit number (FNV-1a), so `--seed demo` works as well as `--seed 42`. */
export function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

export function int(rng: Rng, min: number, max: number): number {
  return min + Math.floor(rng() * (max - min + 1));
}

export function pick<T>(rng: Rng, list: readonly T[]): T {
  return list[Math.floor(rng() * list.length)];
}

export function chance(rng: Rng, p: number): boolean {
  return rng() < p;
}

/** Pick by weight: `weighted(rng, [['open', 60], ['patched', 20]])`. */
export function weighted<T>(rng: Rng, table: ReadonlyArray<readonly [T, number]>): T {
  let total = 0;
  for (const [, w] of table) total += w;
  let r = rng() * total;
  for (const [v, w] of table) {
    r -= w;
    if (r < 0) return v;
  }
  return table[table.length - 1][0];
}

/** `n` hex digits from the generator. */
export function hex(rng: Rng, n: number): string {
  let s = '';
  while (s.length < n) s += Math.floor(rng() * 0x100000000).toString(16).padStart(8, '0');
  return s.slice(0, n);
}

/** A 32-bit bijection of `i`: distinct indexes give distinct ids, in an order that looks random. */
export function scramble(i: number, seed: number): string {
  const x = (Math.imul((i + 1) >>> 0, 0x9e3779b1) ^ seed) >>> 0;
  return x.toString(16).padStart(8, '0');
}
