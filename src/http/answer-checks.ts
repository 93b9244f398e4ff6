/**
 * What makes a 2xx answer not a clean one, whatever its shape: the service's error key next to (or
 * instead of) data, and a JSON object with the same key twice. Both are exit 7 (a bad answer), never
 * data: see docs/security.md, "What the gate does not trust".
 *
 * A JSON object with the same key twice: JSON.parse keeps the last value and says nothing, so an
 * answer that says two things (`"totalCount": 5, ..., "totalCount": 0`, an issue with two scores)
 * would be read as whichever came last. svc refuses such an answer (exit 7) at the levels it
 * decides on. The scan checks keys, not syntax (JSON.parse checks that); it walks the text once,
 * skipping string contents with indexOf, and keeps the keys of objects up to `maxDepth` deep
 * (1: the top-level object; arrays do not count as a level).
 */

import { ResponseError } from './api-errors.js';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Index after the string that opens at `i`, or -1. */
function stringEnd(s: string, i: number): number {
  for (let from = i + 1; ;) {
    const q = s.indexOf('"', from);
    if (q < 0) return -1;
    let k = q - 1;
    while (s.charCodeAt(k) === BACKSLASH) k--;
    if ((q - 1 - k) % 2 === 0) return q + 1;
    from = q + 1;
  }
}

// The fast pass keeps no strings: each key of an open object within maxDepth is its place in the text
// (start, length) in one reused array; objects and arrays are a stack of flags.
let places = new Int32Array(512);
let kinds = new Uint8Array(64);
let starts = new Int32Array(64);

/** The key at `a` (length n) reads as the key at `b`: the same characters (neither written with escapes). */
function sameText(s: string, a: number, b: number, n: number): boolean {
  for (let k = 0; k < n; k++) if (s.charCodeAt(a + k) !== s.charCodeAt(b + k)) return false;
  return true;
}

/**
 * Whether some object up to `maxDepth` deep may give a key twice: false when surely not; true when
 * one does, or when a key is written with escapes (then the exact pass decides). One walk, no strings.
 */
function mayRepeatKey(s: string, maxDepth: number, from: number, to: number): boolean {
  let depth = 0; // open objects and arrays
  let objects = 0; // open objects
  let used = 0; // entries of `places` in use (two per key)
  let expectKey = false;
  for (let j = from; j < to; j++) {
    const c = s.charCodeAt(j);
    if (c === QUOTE) {
      const end = stringEnd(s, j);
      if (end < 0) return false;
      if (expectKey && kinds[depth - 1] === 2) {
        const start = j + 1;
        const n = end - 1 - start;
        for (let k = start; k < end - 1; k++) if (s.charCodeAt(k) === BACKSLASH) return true;
        for (let k = starts[depth - 1]; k < used; k += 2) {
          if (places[k + 1] === n && s.charCodeAt(places[k]) === s.charCodeAt(start) && sameText(s, places[k], start, n)) return true;
        }
        if (used + 2 > places.length) { const grown = new Int32Array(places.length * 2); grown.set(places); places = grown; }
        places[used++] = start;
        places[used++] = n;
      }
      expectKey = false;
      j = end - 1;
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (depth === kinds.length) {
        const k2 = new Uint8Array(depth * 2); k2.set(kinds); kinds = k2;
        const s2 = new Int32Array(depth * 2); s2.set(starts); starts = s2;
      }
      const object = c === 0x7b;
      if (object) objects++;
      // 2: an object whose keys are kept; 1: another object; 0: an array.
      kinds[depth] = object ? (objects <= maxDepth ? 2 : 1) : 0;
      starts[depth] = used;
      depth++;
      expectKey = object;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      if (depth === 0) return false;
      depth--;
      if (kinds[depth] !== 0) objects--;
      used = starts[depth];
      expectKey = false;
    } else if (c === 0x2c /* , */) {
      expectKey = depth > 0 && kinds[depth - 1] !== 0;
    }
  }
  return false;
}

/** The first key that appears twice in one object up to `maxDepth` deep (as a dotted path), or undefined. */
function duplicateKey(s: string, maxDepth: number, from = 0, to = s.length): string | undefined {
  return mayRepeatKey(s, maxDepth, from, to) ? duplicateKeyPath(s, maxDepth, from, to) : undefined;
}

/** The first key that appears twice in one object up to `maxDepth` deep (as a dotted path), or undefined (exact, slower: keys as strings). */
function duplicateKeyPath(s: string, maxDepth: number, from = 0, to = s.length): string | undefined {
  // One entry per open object or array: the keys seen (objects within maxDepth), null for others.
  const keys: Array<Set<string> | null> = [];
  const isObject: boolean[] = [];
  const names: string[] = [];
  let objects = 0;
  let expectKey = false;
  for (let j = from; j < to; j++) {
    const c = s.charCodeAt(j);
    if (c === QUOTE) {
      const end = stringEnd(s, j);
      if (end < 0) return undefined;
      if (expectKey) {
        const set = keys[keys.length - 1];
        if (set) {
          let key = s.slice(j + 1, end - 1);
          if (key.includes('\\')) {
            try { key = JSON.parse(s.slice(j, end)) as string; } catch { return undefined; }
          }
          if (set.has(key)) return [...names.slice(0, keys.length - 1).filter((n) => n !== undefined), key].join('.');
          set.add(key);
          names[keys.length - 1] = key;
        }
        expectKey = false;
      }
      j = end - 1;
    } else if (c === 0x7b /* { */) {
      objects++;
      keys.push(objects <= maxDepth ? new Set() : null);
      isObject.push(true);
      expectKey = true;
    } else if (c === 0x5b /* [ */) {
      keys.push(null);
      isObject.push(false);
      expectKey = false;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      if (isObject.pop()) objects--;
      keys.pop();
      names.length = Math.min(names.length, keys.length);
      expectKey = false;
    } else if (c === 0x2c /* , */) {
      expectKey = isObject[isObject.length - 1] === true;
    }
  }
  return undefined;
}

/** Objects this deep are checked for a key given twice in an answer parsed whole (2: an item of a top-level list). */
const ANSWER_KEY_DEPTH = 3;

const HINT = 'the service (or something between it and svc) sent an answer that contradicts itself; check the base URL and any proxy; --verbose shows the answer';

/**
 * Whether `text` is exactly `JSON.stringify` of `data`, what it parses to: a service writing compact
 * JSON. Such a text gives no key twice (an object holds each key once, and is written so), so the
 * key scan (checkKeysOnce) is needed only for other texts. For an answer of a call this is ~0.1 ms
 * where the scan, running once in a short process, takes several times that.
 */
export function isCanonical(text: string, data: unknown): boolean {
  try {
    return JSON.stringify(data) === text;
  } catch {
    return false;
  }
}

/** An answer whose text gives a key twice is refused (exit 7), naming the key. */
export function checkKeysOnce(text: string, what: string, maxDepth = ANSWER_KEY_DEPTH, from = 0, to = text.length): void {
  const dup = duplicateKey(text, maxDepth, from, to);
  if (dup !== undefined) throw new ResponseError(`${what}: the answer gives '${dup}' twice (JSON keeps only the last), so it cannot be trusted`, undefined, HINT);
}

/**
 * The service's error key (`error`, a string or an object; field notes, "Errors") in a 2xx answer:
 * whatever data comes with it may be partial, so it is no answer (exit 7), naming the message.
 */
export function checkNoErrorKey(data: unknown, what: string): void {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return;
  const record = data as Record<string, unknown>;
  const e = record.error;
  const refuse = (said: unknown, how: string) => {
    const shown = typeof said === 'string' ? said : JSON.stringify(said);
    throw new ResponseError(`${what}: the answer ${how} (${JSON.stringify(shown.slice(0, 120))}) with a success status, so its data cannot be trusted`, undefined, HINT);
  };
  if (e !== undefined && e !== null && e !== false) refuse(e, 'carries an error');
  // No record of the spec has `errors` or `success` (its answers are the records, or OkResponse's
  // `ok`): a non-empty `errors` list (or object, or text) or `success: false` beside the data is an
  // error-shaped answer from something between svc and the service ("partial results, shard down"),
  // and the data beside it may be partial. An empty `errors` ([] or {}) says there is none.
  const list = record.errors;
  const listed = typeof list === 'string' ? list !== ''
    : Array.isArray(list) ? list.length > 0
      : list !== null && typeof list === 'object' ? Object.keys(list).length > 0
        : list === true;
  if (listed) refuse(Array.isArray(list) ? list[0] : list, 'carries errors');
  if (record.success === false) refuse(typeof record.message === 'string' ? record.message : 'success: false', "says success: false");
}

/**
 * How deep an answer may nest (lists and objects, the top level counting 1): far beyond any answer
 * of the spec (an issue search is ~4 deep), and shallow enough for every renderer that walks the data
 * (JSON, the table's and CSV's columns, --jq, which hands the data to its engine as one JSON text).
 * A deeper answer is refused where it is parsed, once for every output format.
 */
export const MAX_ANSWER_DEPTH = 1000;

/** Whether `v` nests more than `levels` lists and objects deep. Recursion at most `levels` deep. */
function deeperThan(v: unknown, levels: number): boolean {
  if (v === null || typeof v !== 'object') return false;
  if (levels === 0) return true;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const x = v[i];
      if (x !== null && typeof x === 'object' && deeperThan(x, levels - 1)) return true;
    }
    return false;
  }
  for (const k in v) {
    const x = (v as Record<string, unknown>)[k];
    if (x !== null && typeof x === 'object' && deeperThan(x, levels - 1)) return true;
  }
  return false;
}

/** An answer nested deeper than MAX_ANSWER_DEPTH is no answer svc can process (exit 7), whatever the output format. */
export function checkDepth(data: unknown, what: string): void {
  if (deeperThan(data, MAX_ANSWER_DEPTH)) {
    throw new ResponseError(
      `${what}: the data is nested too deeply to process (more than ${MAX_ANSWER_DEPTH} levels of lists and objects)`,
      undefined,
      'check the response with --verbose',
    );
  }
}
