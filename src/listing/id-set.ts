/**
 * The ids a listing has seen, with the page each came on: the pager's duplicate check over every item
 * of a long listing. A Map of 100,000 id strings cost ~0.4 s of CPU (rehashing, and the collector
 * tracing every entry and string, which moved to the old generation) and ~5 MB; here the ids' UTF-16
 * code units are copied into one growing array and found through an open-addressing table of
 * indexes, so the collector sees a handful of typed arrays however many ids there are. Exact: a
 * hash only picks where to look; ids are compared unit by unit.
 */
export class IdSet {
  /** Every id's code units, one after another. */
  private units = new Uint16Array(1 << 16);
  private used = 0;
  /** Per entry: where its units start, how many, its page. */
  private start = new Int32Array(1 << 12);
  private length = new Int32Array(1 << 12);
  private page = new Int32Array(1 << 12);
  private count = 0;
  /** Entry index + 1 per slot (0: empty); a power of two, at most half full. */
  private slots = new Int32Array(1 << 13);

  get size(): number {
    return this.count;
  }

  /** Adds `id` seen on `page`; when it was seen before, returns that page instead (and adds nothing). */
  add(id: string, page: number): number | undefined {
    const mask = this.slots.length - 1;
    for (let s = hash(id) & mask; ; s = (s + 1) & mask) {
      const e = this.slots[s] - 1;
      if (e < 0) {
        this.insert(id, page, s);
        return undefined;
      }
      if (this.equals(e, id)) return this.page[e];
    }
  }

  private equals(e: number, id: string): boolean {
    if (this.length[e] !== id.length) return false;
    const at = this.start[e];
    for (let i = 0; i < id.length; i++) if (this.units[at + i] !== id.charCodeAt(i)) return false;
    return true;
  }

  private insert(id: string, page: number, slot: number): void {
    if (this.used + id.length > this.units.length) this.units = grown(this.units, this.used + id.length);
    if (this.count === this.start.length) {
      this.start = grown(this.start, this.count + 1);
      this.length = grown(this.length, this.count + 1);
      this.page = grown(this.page, this.count + 1);
    }
    const e = this.count++;
    this.start[e] = this.used;
    this.length[e] = id.length;
    this.page[e] = page;
    for (let i = 0; i < id.length; i++) this.units[this.used++] = id.charCodeAt(i);
    this.slots[slot] = e + 1;
    if (this.count * 2 > this.slots.length) this.rehash();
  }

  private rehash(): void {
    const slots = new Int32Array(this.slots.length * 2);
    const mask = slots.length - 1;
    for (let e = 0; e < this.count; e++) {
      let s = hashUnits(this.units, this.start[e], this.length[e]) & mask;
      while (slots[s] !== 0) s = (s + 1) & mask;
      slots[s] = e + 1;
    }
    this.slots = slots;
  }
}

/** FNV-1a over UTF-16 code units (the same value for a string and for its copied units). */
function hash(id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 16777619);
  return h >>> 0;
}

function hashUnits(units: Uint16Array, at: number, n: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < n; i++) h = Math.imul(h ^ units[at + i], 16777619);
  return h >>> 0;
}

function grown<T extends Uint16Array | Int32Array>(a: T, need: number): T {
  let n = a.length * 2;
  while (n < need) n *= 2;
  const b = new (a.constructor as new (n: number) => T)(n);
  b.set(a);
  return b;
}
