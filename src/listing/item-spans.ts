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

export interface Spans {
  /** Start and end (exclusive) of item k at [2k] and [2k + 1]. */
  bounds: number[];
  /** Items with white space between their tokens. */
  spaced: Set<number>;
  /** Where the list itself starts (its `[`) and ends (after its `]`). */
  listStart: number;
  listEnd: number;
}

/** End of the value at `i` (index after it), or -1; `spaced` is told of white space inside it. */
function valueEnd(buf: Buffer, i: number, onSpace: () => void): number {
  const c = buf[i];
  if (c === QUOTE) return stringEnd(buf, i);
  if (c === LBRACE || c === LBRACKET) {
    let depth = 0;
    for (let j = i; j < buf.length; j++) {
      const b = buf[j];
      if (b === QUOTE) {
        j = stringEnd(buf, j) - 1;
        if (j < 0) return -1;
      } else if (b === LBRACE || b === LBRACKET) {
        depth++;
      } else if (b === RBRACE || b === RBRACKET) {
        if (--depth === 0) return j + 1;
      } else if (isSpace(b)) {
        onSpace();
      }
    }
    return -1;
  }
  // A number, true, false or null: up to the next delimiter.
  let j = i;
  while (j < buf.length && buf[j] !== COMMA && buf[j] !== RBRACE && buf[j] !== RBRACKET && !isSpace(buf[j])) j++;
  return j > i ? j : -1;
}

/** The items of the list under the top-level `key` of the JSON object in `buf`. */
export function itemSpans(buf: Buffer, key: string): Spans | undefined {
  const keyBytes = Buffer.from(key, 'utf8');
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
    i = skipSpace(buf, keyEnd);
    if (buf[i] !== COLON) return undefined;
    i = skipSpace(buf, i + 1);
    if (isList) {
      // The list twice: JSON.parse keeps the last, a copy would not know which.
      if (found || buf[i] !== LBRACKET) return undefined;
      const spans: Spans = { bounds: [], spaced: new Set(), listStart: i, listEnd: -1 };
      i = skipSpace(buf, i + 1);
      if (buf[i] === RBRACKET) {
        i++;
      } else {
        for (;;) {
          const k = spans.bounds.length / 2;
          const end = valueEnd(buf, i, () => spans.spaced.add(k));
          if (end < 0) return undefined;
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
      i = valueEnd(buf, i, () => {});
      if (i < 0) return undefined;
    }
    i = skipSpace(buf, i);
    if (buf[i] === COMMA) { i = skipSpace(buf, i + 1); continue; }
    if (buf[i] === RBRACE) return found;
    return undefined;
  }
}
