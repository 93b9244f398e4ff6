/**
 * A page of a long listing, parsed when its turn comes (the pager asks for pages as raw answers, so
 * the pages in flight wait as bytes outside V8's heap), and parsed item by item: the page's ~1 MB
 * text is never one string (V8 puts strings that large straight into the old generation, where they
 * stay until a full collection; a 100,000-issue listing would pile up ~180 MB of them), and each
 * item's text and object die young. The values are those JSON.parse of the whole answer gives:
 * the list's place is found by item-spans.ts (which declines whenever a byte scan could differ from
 * JSON.parse), the rest of the answer and every item are each parsed by JSON.parse, and the scan has
 * checked what lies between them. The bytes and the items' places are kept for NDJSON's copy, until
 * releasePage() gives the buffer back to its pool.
 */
import { isUtf8 } from 'node:buffer';
import { RawAnswer } from '../http/raw-answer.js';
import { CliError } from '../core/errors.js';
import { itemSpans, type Spans } from './item-spans.js';
import { checkDepth, checkErrorBesideData, checkKeysOnce } from '../answers/json-text.js';
import { mayHoldInexact, noteInexact, splitInexact } from '../http/exact-numbers.js';

export interface PageSource {
  bytes: Buffer;
  /** The top-level key of the item list. */
  key: string;
  /** Where the items lie in `bytes`, when known (else found again). */
  spans?: Spans;
}

const sources = new WeakMap<object, PageSource>();
const answers = new WeakMap<object, RawAnswer>();

/**
 * Items that are only counted and copied (NDJSON from the bytes): each is parsed, which checks it,
 * but only what the pager's checks read is kept: the id and its aliases (the duplicate check,
 * `item-id-field`), the fields the scope check reads (`item-foreign`...), and the page's first item
 * whole (a page that repeats the one before). So a page's items do not outlive their parsing and
 * V8's young generation stays small. Used only where the page's bytes are written as they are.
 */
interface Slim {
  /** The item's id field (the pager's duplicate check), if the listing has one. */
  id?: string;
  /** Other fields to keep: the id's aliases, the scope check's fields. */
  keep?: readonly string[];
}

/** The fields of `item` named in `fields` that it has. */
function kept(item: Record<string, unknown>, fields: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) if (Object.hasOwn(item, f)) out[f] = item[f];
  return out;
}

/** The bytes hold compact items: single commas between them, no white space inside. */
export function compactItems(spans: Spans): boolean {
  if (spans.spaced.size > 0) return false;
  const b = spans.bounds;
  for (let k = 2; k < b.length; k += 2) if (b[k] !== b[k - 1] + 1) return false;
  return true;
}

/**
 * The answer parsed (a RawAnswer; anything else is already parsed and returned as it is).
 * `exact`: the items are written as JSON one by one (not copied from the bytes): an item whose text
 * is not JSON.stringify of its parse has its numbers a double does not hold recorded
 * (http/exact-numbers.ts), so that they are written as the service sent them.
 */
export function decodePage(answer: unknown, key: string, slim?: Slim, exact = false): unknown {
  if (!(answer instanceof RawAnswer)) return answer;
  const { bytes } = answer;
  // A nested list (a dotted key) is not copied from the bytes: parsed whole. Nor is an answer that
  // is not valid UTF-8: parsing reads each bad byte as U+FFFD, a copy would pass the bad bytes on.
  const topLevel = !key.includes('.');
  const copyable = topLevel && isUtf8(bytes);
  const spans = topLevel ? itemSpans(bytes, key, true) : undefined;
  // The scan that found the items also checked their keys, and the answer's (item-spans.ts): where it
  // saw none twice, the texts need no second look. Its bytes are the keys' text only in valid UTF-8
  // (two bad bytes both read as U+FFFD).
  const keysChecked = spans !== undefined && spans.keysOnce && copyable;
  let data: unknown;
  // With `exact`: the items whose text may hold such a number, as [index, text, ...].
  let risky: Array<number | string> | undefined;
  try {
    if (spans) {
      // The answer with an empty list in the list's place (same keys, same order), then the items.
      const rest = `${bytes.toString('utf8', 0, spans.listStart)}[]${bytes.toString('utf8', spans.listEnd)}`;
      const page = JSON.parse(rest) as Record<string, unknown>;
      // A key given twice (answers/json-text.ts): the answer's own and its objects' (categoryCounts), and each item's.
      if (!keysChecked) checkKeysOnce(rest, answer.call, answer.report, 2);
      const b = spans.bounds;
      const items = new Array<unknown>(b.length / 2);
      if (slim && copyable && compactItems(spans)) {
        const fields = slim.id === undefined ? (slim.keep ?? []) : [slim.id, ...(slim.keep ?? [])];
        for (let k = 0; k < items.length; k++) {
          const text = bytes.toString('utf8', b[2 * k], b[2 * k + 1]);
          const item = JSON.parse(text);
          if (!keysChecked) checkKeysOnce(text, answer.call, answer.report, 2);
          items[k] = k > 0 && item !== null && typeof item === 'object' && !Array.isArray(item) ? kept(item as Record<string, unknown>, fields) : item;
        }
      } else {
        for (let k = 0; k < items.length; k++) {
          const text = bytes.toString('utf8', b[2 * k], b[2 * k + 1]);
          items[k] = JSON.parse(text);
          if (!keysChecked) checkKeysOnce(text, answer.call, answer.report, 2);
          if (exact && mayHoldInexact(text)) (risky ??= []).push(k, text);
        }
      }
      page[key] = items;
      data = page;
      // As parseAnswer checks an answer parsed whole (answers/json-text.ts): ~1% of the parse's time.
      checkDepth(data, answer.call, answer.report);
      // After the depth check (JSON.stringify walks the item): an item whose text is not its
      // stringified parse has its numbers a double changes recorded.
      for (let r = 0; risky && r < risky.length; r += 2) {
        const item = items[risky[r] as number];
        const text = risky[r + 1] as string;
        if (JSON.stringify(item) !== text) noteInexact(text, item);
      }
    } else {
      data = answer.parse();
      if (exact) splitInexact(data, key);
    }
    checkErrorBesideData(data, answer.call, answer.report);
  } catch (err) {
    answer.release();
    throw spans && !(err instanceof CliError) ? answer.notJson() : err;
  }
  if (data === null || typeof data !== 'object') {
    answer.release();
    return data;
  }
  answers.set(data, answer);
  if (copyable) sources.set(data, { bytes, key, spans });
  return data;
}

/** The bytes (and items' places) a page decoded here came from; undefined for anything else. */
export function pageSource(data: unknown): PageSource | undefined {
  return data !== null && typeof data === 'object' ? sources.get(data) : undefined;
}

/** The page is written and its bytes are not used again: their buffer goes back to its pool. */
export function releasePage(data: unknown): void {
  if (data === null || typeof data !== 'object') return;
  const answer = answers.get(data);
  sources.delete(data);
  answers.delete(data);
  answer?.release();
}
