/**
 * What svc can read of an answer's JSON text, whatever its shape (rows of answers/checks.ts):
 * - a key given twice in one object (`key-twice`: two values, refused; `key-repeated`: the same value,
 *   a warning). JSON.parse keeps the last value and says nothing, so an answer that says two things
 *   (`"totalCount": 5, ..., "totalCount": 0`, an issue with two scores) would be read as whichever came
 *   last. The scan checks keys, not syntax (JSON.parse checks that); it walks the text once, skipping
 *   string contents with indexOf, and keeps the keys of objects up to `maxDepth` deep (1: the top-level
 *   object; arrays do not count as a level). Only where it finds a key twice (rare) is the text parsed
 *   again to compare the values;
 * - an error beside the data (`error-beside-data`);
 * - an answer nested too deeply for any renderer (`too-deep`).
 */
import type { Report } from './doubts.js';

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

/**
 * Each key given twice in one object up to `maxDepth` deep, as a dotted path, and whether its values
 * are the same. The text (from..to) is valid JSON (JSON.parse read it): parsed again here, only when
 * the fast walk (mayRepeatKey) says a key may repeat.
 */
function repeatedKeys(s: string, maxDepth: number, from = 0, to = s.length): Array<{ path: string; same: boolean }> {
  const found: Array<{ path: string; same: boolean }> = [];
  let i = from;
  const space = () => { while (i < to) { const c = s.charCodeAt(i); if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) i++; else break; } };
  const value = (objects: number, path: readonly string[]): unknown => {
    space();
    const c = s.charCodeAt(i);
    if (c === 0x7b /* { */) {
      i++;
      const depth = objects + 1;
      const seen = depth <= maxDepth ? new Map<string, string>() : undefined;
      const out: Record<string, unknown> = {};
      space();
      if (s.charCodeAt(i) === 0x7d) { i++; return out; }
      for (;;) {
        space();
        const end = stringEnd(s, i);
        const key = JSON.parse(s.slice(i, end)) as string;
        i = end;
        space();
        i++; // :
        const v = value(depth, [...path, key]);
        if (seen) {
          const text = JSON.stringify(v) ?? 'undefined';
          const before = seen.get(key);
          if (before !== undefined) found.push({ path: [...path, key].join('.'), same: before === text });
          else seen.set(key, text);
        }
        out[key] = v;
        space();
        if (s.charCodeAt(i++) === 0x2c /* , */) continue;
        return out;
      }
    }
    if (c === 0x5b /* [ */) {
      i++;
      const out: unknown[] = [];
      space();
      if (s.charCodeAt(i) === 0x5d) { i++; return out; }
      for (;;) {
        out.push(value(objects, path));
        space();
        if (s.charCodeAt(i++) === 0x2c) continue;
        return out;
      }
    }
    if (c === QUOTE) {
      const end = stringEnd(s, i);
      const v = JSON.parse(s.slice(i, end)) as string;
      i = end;
      return v;
    }
    const start = i;
    while (i < to) {
      const d = s.charCodeAt(i);
      if (d === 0x2c || d === 0x5d || d === 0x7d || d === 0x20 || d === 0x09 || d === 0x0a || d === 0x0d) break;
      i++;
    }
    return JSON.parse(s.slice(start, i));
  };
  try {
    value(0, []);
  } catch {
    // Not JSON after all: JSON.parse, which read it, decides; nothing is said here.
  }
  return found;
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

/**
 * Each key the text gives twice is reported (checks.ts): with two values `key-twice` (refused in every
 * use: which value the service meant cannot be told), with the same value `key-repeated` (a warning).
 */
export function checkKeysOnce(text: string, what: string, report: Report, maxDepth = ANSWER_KEY_DEPTH, from = 0, to = text.length): void {
  if (!mayRepeatKey(text, maxDepth, from, to)) return;
  for (const { path, same } of repeatedKeys(text, maxDepth, from, to)) {
    if (same) report('key-repeated', what, `'${path}' twice, the same value each time`);
    else report('key-twice', what, `the answer gives '${path}' twice with two values (JSON keeps only the last), so which one the service meant cannot be told`, HINT);
  }
}

/**
 * What an answer says went wrong beside its data, or undefined: the service's error key (`error`, a
 * string or an object, field notes "Errors"), a non-empty `errors` (a list, an object or a text), or
 * `success: false` (with its `message`). No record of the spec has `errors` or `success` (its answers
 * are the records, or OkResponse's `ok`): beside data they come from something between svc and the
 * service ("partial results, shard down"). `"error": ""`, `null`, `false`, `0` or `"0"` (a code of
 * no error), `{}`, an empty `errors` ([] or {}) and `success: true` say there is none.
 */
function errorBesideData(data: unknown): string | undefined {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return undefined;
  const record = data as Record<string, unknown>;
  const said = (v: unknown): string => JSON.stringify((typeof v === 'string' ? v : JSON.stringify(v)).slice(0, 120));
  const e = record.error;
  // A code of 0 (or "0") is the common "no error" (inference: the field notes show only texts and objects).
  const none = e === undefined || e === null || e === false || e === 0 || (typeof e === 'string' && (e.trim() === '' || e.trim() === '0'))
    || (typeof e === 'object' && Object.keys(e as object).length === 0);
  if (!none) return `it carries an error (${said(e)}) with a success status`;
  const list = record.errors;
  const listed = typeof list === 'string' ? list !== ''
    : Array.isArray(list) ? list.length > 0
      : list !== null && typeof list === 'object' ? Object.keys(list).length > 0
        : list === true;
  if (listed) return `it carries errors (${said(Array.isArray(list) ? list[0] : list)}) with a success status`;
  if (record.success === false) return `it says success: false (${said(typeof record.message === 'string' ? record.message : 'success: false')})`;
  return undefined;
}

/** An error beside the data is reported (`error-beside-data`): its data may be partial. */
export function checkErrorBesideData(data: unknown, what: string, report: Report): void {
  const said = errorBesideData(data);
  if (said !== undefined) report('error-beside-data', what, `${said}, so its data may be partial`, HINT);
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

/** An answer nested deeper than MAX_ANSWER_DEPTH is no answer svc can process (`too-deep`: refused in every use). */
export function checkDepth(data: unknown, what: string, report: Report): void {
  if (deeperThan(data, MAX_ANSWER_DEPTH)) {
    report('too-deep', what, `the data is nested too deeply to process (more than ${MAX_ANSWER_DEPTH} levels of lists and objects)`, 'check the response with --verbose');
  }
}
