/**
 * The config file's new text after a change: every value the change did not touch is copied from the
 * file as it was written, byte for byte (a value of the wrong type, an unknown key, another profile).
 * JSON.parse then JSON.stringify would turn `1e400` into `null` and `12345678901234567890` into
 * `12345678901234567000`: a hand-written value lost by setting another key. The layout is conf's
 * (tab-indented), so a file svc wrote comes out as JSON.stringify would write it.
 */
import { isDeepStrictEqual } from 'node:util';

/**
 * `after` as JSON text; `before` is what `text` parsed to (its values are those of `after` that did
 * not change: the same values, the same objects). Only for text JSON.parse accepted.
 */
export function rewrite(text: string | undefined, before: unknown, after: unknown): string {
  const out = render(after, before, text?.trim() ? text.trim() : undefined, '');
  // A safety net: what is written must read back as `after` (else conf's own layout, values as JSON.stringify has them).
  return isDeepStrictEqual(JSON.parse(out), after) ? out : JSON.stringify(after, undefined, '\t');
}

function render(after: unknown, before: unknown, raw: string | undefined, indent: string): string {
  if (raw !== undefined && after === before) return raw;
  if (!isObject(after)) return JSON.stringify(after, undefined, '\t').replace(/\n/g, `\n${indent}`);
  const members = raw !== undefined && isObject(before) ? objectMembers(raw) : new Map<string, string>();
  const entries = Object.entries(after).filter(([, v]) => v !== undefined);
  if (entries.length === 0) return '{}';
  const inner = `${indent}\t`;
  const lines = entries.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${render(v, isObject(before) ? before[k] : undefined, members.get(k), inner)}`);
  return `{\n${lines.join(',\n')}\n${indent}}`;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Key -> value text; a key written twice keeps its first place and its last value, as JSON.parse does. */
function objectMembers(text: string): Map<string, string> {
  const members = new Map<string, string>();
  let i = skipSpace(text, 0);
  if (text[i] !== '{') return members;
  i = skipSpace(text, i + 1);
  while (i < text.length && text[i] !== '}') {
    const keyEnd = stringEnd(text, i);
    const key = JSON.parse(text.slice(i, keyEnd)) as string;
    const start = skipSpace(text, skipSpace(text, keyEnd) + 1);
    const end = valueEnd(text, start);
    members.set(key, text.slice(start, end));
    i = skipSpace(text, end);
    if (text[i] === ',') i = skipSpace(text, i + 1);
  }
  return members;
}

function skipSpace(text: string, i: number): number {
  while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
  return i;
}

/** `i` at a string's opening quote: the index after its closing one. */
function stringEnd(text: string, i: number): number {
  let j = i + 1;
  while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
  return j + 1;
}

function valueEnd(text: string, i: number): number {
  const c = text[i];
  if (c === '"') return stringEnd(text, i);
  if (c !== '{' && c !== '[') {
    let j = i;
    while (j < text.length && !',}] \t\n\r'.includes(text[j])) j++;
    return j;
  }
  let depth = 0;
  for (let j = i; j < text.length; j++) {
    const d = text[j];
    if (d === '"') j = stringEnd(text, j) - 1;
    else if (d === '{' || d === '[') depth++;
    else if ((d === '}' || d === ']') && --depth === 0) return j + 1;
  }
  return text.length;
}
