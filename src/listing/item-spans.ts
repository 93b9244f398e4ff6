/**
 * Where each item of an answer's top-level list lies in the bytes the answer came as, so that a long
 * NDJSON listing can copy every item as the service sent it instead of serializing the parsed item
 * again and encoding that text to UTF-8 (~60% of the CLI's CPU time for `--all -o ndjson`).
 *
 * The scan checks structure, not syntax: page-decode.ts then parses the answer without its list and
 * every item on its own with JSON.parse, and the scan has checked what lies between them (the list's
 * brackets, the commas), so the bytes are valid JSON exactly when all those parses succeed. It
 * declines (undefined) whenever the pieces could differ from what parsing the whole answer gives: a
 * top-level key written with escapes, the list's key twice (JSON.parse keeps the last), or anything
 * unexpected. An item with white space between its tokens is marked, so the caller serializes that
 * one instead (NDJSON needs one item a line).
 *
 * Asked to (`checkKeys`), the same walk also does the key-twice check of answers/json-text.ts on the
 * objects page-decode.ts would have it check (the answer and its objects; each item and its objects),
 * on the bytes: `keysOnce` says it saw no key twice there and none written with escapes, so the
 * texts need no second scan. Anything else (a key twice, an escaped key, an object with more than 512
 * keys) leaves the decision, and the message naming the key, to checkKeysOnce as before. The page
 * was scanned twice before (~0.8 of the 1.8 s of CPU of `--all -o ndjson` at 100,000 issues).
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const LBRACE = 0x7b;
const RBRACE = 0x7d;
const LBRACKET = 0x5b;
const RBRACKET = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;

const isSpace = (b: number) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;

function skipSpace(buf: Buffer, i: number): number {
  while (i < buf.length && isSpace(buf[i])) i++;
  return i;
}

/** Index after the string that opens at `i`, or -1 (memchr for the quote, then its backslashes). */
function stringEnd(buf: Buffer, i: number): number {
  for (let from = i + 1; ;) {
    const q = buf.indexOf(QUOTE, from);
    if (q < 0) return -1;
    let k = q - 1;
    while (buf[k] === BACKSLASH) k--;
    // An even number of backslashes before it: the quote ends the string.
    if ((q - 1 - k) % 2 === 0) return q + 1;
    from = q + 1;
  }
}

function keyHash(buf: Buffer, from: number, to: number): number {
  let h = 0;
  for (let k = from; k < to; k++) h = (Math.imul(h, 31) + buf[k]) | 0;
  return h;
}

export interface Spans {
  /** Start and end (exclusive) of item k at [2k] and [2k + 1]. */
  bounds: number[];
  /** Items with white space between their tokens. */
  spaced: Set<number>;
  /** Where the list itself starts (its `[`) and ends (after its `]`). */
  listStart: number;
  listEnd: number;
  /**
   * Asked for (`checkKeys`): the scan saw no key twice in the answer's object and the objects
   * answers/json-text.ts would check (see checkKeysOnce in page-decode.ts), and no such key written with
   * escapes. False when one may repeat (or not asked): the caller checks the text as before.
   */
  keysOnce: boolean;
}

// The key check of the same walk (the answer's keys, its objects' and each item's and their objects'):
// a set of keys per depth of objects (1: the answer, 2: its objects and the items, 3: the items'
// objects), open addressing over the bytes' places, each object marked by its own number so that no
// table is ever cleared. Only one object per depth is open at a time.
const DEPTHS = 4;
const SLOTS = 1024;
const MASK = SLOTS - 1;
/** More keys than this in one object: not decided here (the caller's check decides). */
const MAX_KEYS = SLOTS / 2;
const stamps = new Int32Array(DEPTHS * SLOTS);
const places = new Int32Array(DEPTHS * SLOTS);
const lengths = new Int32Array(DEPTHS * SLOTS);
const objectOf = new Int32Array(DEPTHS);
const keyCount = new Int32Array(DEPTHS);
let serial = 0;
/** Of the scan under way: no key seen twice (nor written with escapes) so far. */
let keysOnce = false;
/** Of the value being walked: white space between its tokens. */
let sawSpace = false;
/** Open arrays and objects of the value being walked: 0 an array, 1 an object, 2 an object whose keys are checked. */
let kinds = new Uint8Array(64);

function openObject(level: number): void {
  if (++serial === 0x7fffffff) { stamps.fill(0); serial = 1; }
  objectOf[level] = serial;
  keyCount[level] = 0;
}

/** The key whose text is buf[start, start + n) (no escapes), hashed `h`, in the open object of `level`. */
function addKey(buf: Buffer, level: number, start: number, n: number, h: number): void {
  if (++keyCount[level] > MAX_KEYS) { keysOnce = false; return; }
  const base = level * SLOTS;
  const mark = objectOf[level];
  for (let slot = (h ^ (h >>> 11)) & MASK; ; slot = (slot + 1) & MASK) {
    const at = base + slot;
    if (stamps[at] !== mark) {
      stamps[at] = mark;
      places[at] = start;
      lengths[at] = n;
      return;
    }
    if (lengths[at] === n) {
      const other = places[at];
      let k = 0;
      while (k < n && buf[other + k] === buf[start + k]) k++;
      if (k === n) { keysOnce = false; return; }
    }
  }
}

/** Index after the key string that opens at `i` (or -1), noted in the open object of `level`. */
function keyStringEnd(buf: Buffer, i: number, level: number): number {
  let h = 0;
  for (let k = i + 1; k < buf.length; k++) {
    const b = buf[k];
    if (b === QUOTE) {
      addKey(buf, level, i + 1, k - i - 1, h);
      return k + 1;
    }
    // Escapes: the same key may be written otherwise; the caller's check decides.
    if (b === BACKSLASH) { keysOnce = false; return stringEnd(buf, i); }
    h = (Math.imul(h, 31) + b) | 0;
  }
  return -1;
}

/**
 * End of the value at `i` (index after it), or -1; `sawSpace` is set for white space inside it. Its
 * objects' keys are checked while `keysOnce` holds, for objects up to `maxDepth` deep counting the
 * `objects` that enclose the value.
 */
function valueEnd(buf: Buffer, i: number, objects: number, maxDepth: number): number {
  const c = buf[i];
  if (c === QUOTE) return stringEnd(buf, i);
  if (c === LBRACE || c === LBRACKET) {
    let depth = 0;
    let expectKey = false;
    for (let j = i; j < buf.length; j++) {
      const b = buf[j];
      if (b === QUOTE) {
        j = (expectKey && kinds[depth - 1] === 2 && keysOnce ? keyStringEnd(buf, j, objects) : stringEnd(buf, j)) - 1;
        if (j < 0) return -1;
        expectKey = false;
      } else if (b === LBRACE || b === LBRACKET) {
        if (depth === kinds.length) { const grown = new Uint8Array(depth * 2); grown.set(kinds); kinds = grown; }
        if (b === LBRACE) {
          objects++;
          const checked = objects <= maxDepth && keysOnce;
          if (checked) openObject(objects);
          kinds[depth] = checked ? 2 : 1;
          expectKey = true;
        } else {
          kinds[depth] = 0;
          expectKey = false;
        }
        depth++;
      } else if (b === RBRACE || b === RBRACKET) {
        depth--;
        if (kinds[depth] !== 0) objects--;
        if (depth === 0) return j + 1;
        expectKey = false;
      } else if (b === COMMA) {
        expectKey = kinds[depth - 1] !== 0;
      } else if (isSpace(b)) {
        sawSpace = true;
      }
    }
    return -1;
  }
  // A number, true, false or null: up to the next delimiter.
  let j = i;
  while (j < buf.length && buf[j] !== COMMA && buf[j] !== RBRACE && buf[j] !== RBRACKET && !isSpace(buf[j])) j++;
  return j > i ? j : -1;
}

/** The key check's depths (answers/json-text.ts): outside the list, the answer and its objects; each item and its objects. */
const REST_DEPTH = 2;
const ITEM_DEPTH = 3;

/**
 * The items of the list under the top-level `key` of the JSON object in `buf`. With `checkKeys`, the
 * same walk also checks the keys (`keysOnce`).
 */
export function itemSpans(buf: Buffer, key: string, checkKeys = false): Spans | undefined {
  const keyBytes = Buffer.from(key, 'utf8');
  keysOnce = checkKeys;
  if (keysOnce) openObject(1);
  let found: Spans | undefined;
  let i = skipSpace(buf, 0);
  if (buf[i] !== LBRACE) return undefined;
  i = skipSpace(buf, i + 1);
  if (buf[i] === RBRACE) return undefined;
  for (;;) {
    if (buf[i] !== QUOTE) return undefined;
    const keyEnd = stringEnd(buf, i);
    if (keyEnd < 0) return undefined;
    // A key written with escapes could name the list in a way this byte comparison misses.
    if (buf.subarray(i + 1, keyEnd - 1).includes(BACKSLASH)) return undefined;
    const isList = keyEnd - i - 2 === keyBytes.length && Buffer.compare(buf.subarray(i + 1, keyEnd - 1), keyBytes) === 0;
    if (keysOnce) addKey(buf, 1, i + 1, keyEnd - i - 2, keyHash(buf, i + 1, keyEnd - 1));
    i = skipSpace(buf, keyEnd);
    if (buf[i] !== COLON) return undefined;
    i = skipSpace(buf, i + 1);
    if (isList) {
      // The list twice: JSON.parse keeps the last, a copy would not know which.
      if (found || buf[i] !== LBRACKET) return undefined;
      const spans: Spans = { bounds: [], spaced: new Set(), listStart: i, listEnd: -1, keysOnce: false };
      i = skipSpace(buf, i + 1);
      if (buf[i] === RBRACKET) {
        i++;
      } else {
        for (;;) {
          sawSpace = false;
          const end = valueEnd(buf, i, 1, ITEM_DEPTH);
          if (end < 0) return undefined;
          if (sawSpace) spans.spaced.add(spans.bounds.length / 2);
          spans.bounds.push(i, end);
          i = skipSpace(buf, end);
          if (buf[i] === COMMA) { i = skipSpace(buf, i + 1); continue; }
          if (buf[i] === RBRACKET) { i++; break; }
          return undefined;
        }
      }
      spans.listEnd = i;
      found = spans;
    } else {
      i = valueEnd(buf, i, 1, REST_DEPTH);
      if (i < 0) return undefined;
    }
    i = skipSpace(buf, i);
    if (buf[i] === COMMA) { i = skipSpace(buf, i + 1); continue; }
    if (buf[i] === RBRACE) {
      if (found) found.keysOnce = keysOnce;
      return found;
    }
    return undefined;
  }
}
