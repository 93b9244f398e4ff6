/**
 * JSON written in pieces: the same bytes as `JSON.stringify(value, null, indent)`, without ever
 * holding the whole text (a gate report of 56,000 issues is 40-80 MB of text). Long lists are
 * written item by item, and a `LazyList` makes its items only as they are written, so the objects
 * of a report need not exist all at once either. Everything else (each item, small values) is
 * `JSON.stringify`'s own text, indented to its depth: JSON text has no raw newline inside a string,
 * so every newline in it is structure.
 *
 * `JSON.stringify` of the same value gives the same bytes: a LazyList's `toJSON` makes the whole
 * list (the whole-string writer; test/unit/output/json-stream.test.ts compares both).
 */

/** A list whose items are made when it is written (each once per writing), not kept. */
export class LazyList<T> {
  constructor(private readonly items: () => Iterable<T>) {}
  [Symbol.iterator](): Iterator<T> {
    return this.items()[Symbol.iterator]();
  }
  /** For JSON.stringify (the whole-string writer) and anything that wants an array. */
  toJSON(): T[] {
    return [...this.items()];
  }
}

/** Lists longer than this are written item by item. */
const LONG = 256;

/** Whether a value is worth writing in pieces: it is, or holds (near the top), a long or lazy list. */
function large(value: unknown, depth: number): boolean {
  if (value instanceof LazyList) return true;
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.length > LONG || (depth > 0 && value.length <= 16 && value.some((v) => large(v, depth - 1)));
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function' || depth === 0) return false;
  for (const key in value) if (Object.hasOwn(value, key) && large((value as Record<string, unknown>)[key], depth - 1)) return true;
  return false;
}

/** What JSON leaves out of an object (and writes as null in a list). */
const skipped = (v: unknown) => v === undefined || typeof v === 'function' || typeof v === 'symbol';

/**
 * The pieces of `JSON.stringify(value, null, indent)` (indent: spaces, 0 for none), in order.
 * The value is plain data (as a report is): objects, lists, LazyLists, strings, numbers, booleans, null.
 */
export function* jsonChunks(value: unknown, indent = 0): Generator<string> {
  const step = ' '.repeat(Math.min(10, Math.max(0, Math.floor(indent))));
  yield* piece(value, '', step, '');
}

function whole(value: unknown, step: string, pad: string): string {
  const text = JSON.stringify(value, null, step) as string | undefined;
  if (text === undefined) return 'null';
  return pad === '' || !text.includes('\n') ? text : text.replace(/\n/g, `\n${pad}`);
}

function* piece(input: unknown, key: string, step: string, pad: string): Generator<string> {
  let value = input;
  if (!(value instanceof LazyList) && value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    value = (value as { toJSON(key: string): unknown }).toJSON(key);
  }
  if (!large(value, 4)) {
    yield whole(value, step, pad);
    return;
  }
  const inner = pad + step;
  const [open, sep, close] = step === '' ? ['', ',', ''] : [`\n${inner}`, `,\n${inner}`, `\n${pad}`];
  if (value instanceof LazyList || Array.isArray(value)) {
    let n = 0;
    for (const item of value as Iterable<unknown>) {
      yield n === 0 ? `[${open}` : sep;
      if (skipped(item)) yield 'null';
      else yield* piece(item, String(n), step, inner);
      n++;
    }
    yield n === 0 ? '[]' : `${close}]`;
    return;
  }
  const record = value as Record<string, unknown>;
  let n = 0;
  for (const k of Object.keys(record)) {
    const v = record[k];
    if (skipped(v)) continue;
    yield `${n === 0 ? `{${open}` : sep}${JSON.stringify(k)}:${step === '' ? '' : ' '}`;
    yield* piece(v, k, step, inner);
    n++;
  }
  yield n === 0 ? '{}' : `${close}}`;
}
