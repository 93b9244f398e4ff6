/**
 * Edits of the policy file's `ignore:` list as text (`svc policy ignore`, `unignore`, `prune`): a new
 * entry is added after the list's last one, with its indentation; an entry is changed or removed
 * where it stands; every other byte of the file (comments, other entries, their quotes and spacing,
 * the line endings) stays as it was, as `snyk ignore` keeps `.snyk`. YAML's own round trip is not
 * used for that reason: it re-indents and re-quotes what it did not change.
 *
 * Every edit is checked before it is returned: the new text parses (parsePolicy), and its entries are
 * the old ones but for the entries asked to change. Anything else is a PolicyEditError and nothing is
 * written. Pure: text in, text out (the command reads and writes the file).
 */
import { LineCounter, isMap, isScalar, isSeq, parseDocument, type Node, type Pair, type Scalar, type YAMLMap, type YAMLSeq } from 'yaml';
import { parsePolicy, type IgnoreEntry, type Policy } from './policy-file.js';

/** An edit that cannot be made safely: the message says what to do instead. Nothing is written. */
export class PolicyEditError extends Error {
  override readonly name = 'PolicyEditError';
}

/** A new entry: what it matches (an id or a fingerprint), why, until when, and a note for readers. */
export interface NewEntry {
  id?: string;
  fingerprint?: string;
  reason: string;
  /** YYYY-MM-DD. */
  expires: string;
  /** Shown as a comment after the entry's first line (the title): one line, no control characters. */
  note?: string;
}

/** A file with nothing but what svc writes for a first entry. */
const NEW_FILE = 'version: 1\nignore:\n';

interface Parsed {
  text: string;
  eol: string;
  policy: Policy;
  root: YAMLMap;
  /** The `ignore` pair, when the file has one. */
  pair?: Pair;
  /** Its block sequence, when it has entries. */
  seq?: YAMLSeq;
}

function parse(text: string, file: string): Parsed {
  const policy = parsePolicy(text, file);
  const doc = parseDocument(text, { lineCounter: new LineCounter(), uniqueKeys: true, strict: true });
  const root = doc.contents as YAMLMap;
  if (root.flow) throw new PolicyEditError(`${file} is one flow mapping ({...}); svc edits block YAML only: write its settings one per line (version: 1, ignore: ...)`);
  const pair = root.items.find((p) => isScalar(p.key) && p.key.value === 'ignore');
  const eol = /\r\n/.test(text) ? '\r\n' : '\n';
  const out: Parsed = { text, eol, policy, root, ...(pair ? { pair } : {}) };
  if (pair && isSeq(pair.value)) {
    const seq = pair.value as YAMLSeq;
    if (seq.flow && seq.items.length > 0) throw new PolicyEditError(`${file}: its ignore list is written in flow style ([...]); svc edits block lists only: write each entry as "- id: ..." on lines of its own`);
    if (seq.items.length > 0) out.seq = seq;
  }
  return out;
}

const lineStart = (text: string, at: number) => text.lastIndexOf('\n', at - 1) + 1;
const lineEnd = (text: string, at: number) => {
  const n = text.indexOf('\n', at);
  return n < 0 ? text.length : n + 1;
};
/** The end of a node's text, to the end of its last line (its newline included). */
function nodeEnd(text: string, node: Node): number {
  const end = node.range![2];
  return end > 0 && text[end - 1] === '\n' ? end : lineEnd(text, Math.max(end - 1, 0));
}

/** A YAML scalar for a value: plain where that reads back as the same string, else double-quoted. */
function scalarText(value: string, plainPattern: RegExp): string {
  return plainPattern.test(value) && !/^(true|false|null|yes|no|on|off|~|[-+.\d].*)$/i.test(value) ? value : JSON.stringify(value);
}

function entryLines(e: NewEntry, indent: string, eol: string): string {
  const key = e.id !== undefined ? `id: ${scalarText(e.id, /^[A-Za-z_][A-Za-z0-9_.:/-]*$/)}` : `fingerprint: ${e.fingerprint!}`;
  const note = e.note ? `  # ${e.note}` : '';
  return `${indent}- ${key}${note}${eol}${indent}  reason: ${JSON.stringify(e.reason)}${eol}${indent}  expires: ${e.expires}${eol}`;
}

/** The same entries, compared without their line numbers. */
function sameEntry(a: IgnoreEntry, b: IgnoreEntry): boolean {
  return a.id === b.id && a.fingerprint === b.fingerprint && a.rule === b.rule && a.path === b.path && a.reason === b.reason && a.expires === b.expires;
}

/** The new text, checked: it parses, and its entries are `expected` (in order). */
function checked(text: string, file: string, expected: readonly IgnoreEntry[]): string {
  let policy: Policy;
  try {
    policy = parsePolicy(text, file);
  } catch (err) {
    throw new PolicyEditError(`the edit of ${file} would not read back (${(err as Error).message}); nothing was written`);
  }
  const got = policy.ignore;
  if (got.length !== expected.length || got.some((e, i) => !sameEntry(e, expected[i]))) {
    throw new PolicyEditError(`the edit of ${file} would change entries it was not asked to change; nothing was written`);
  }
  return text;
}

const matchesKey = (entry: IgnoreEntry, e: { id?: string; fingerprint?: string }) =>
  (e.id !== undefined && entry.id === e.id) || (e.fingerprint !== undefined && entry.fingerprint === e.fingerprint);

/**
 * Adds an entry per new one, or changes the reason and expiry of the entry that already matches the
 * same id or fingerprint (never a second entry for one issue). `text` undefined: a new file.
 * Returns the text and, per new entry, whether it was added or updated.
 */
export function addIgnores(text: string | undefined, file: string, entries: readonly NewEntry[]): { text: string; done: Array<'added' | 'updated'> } {
  let p = parse(text ?? NEW_FILE, file);
  const done: Array<'added' | 'updated'> = [];
  const expected = [...p.policy.ignore];
  for (const e of entries) {
    const at = expected.findIndex((x) => matchesKey(x, e));
    const entry: IgnoreEntry = { ...(e.id !== undefined ? { id: e.id } : { fingerprint: e.fingerprint }), reason: e.reason, expires: e.expires, line: 0 };
    let next: string;
    if (at >= 0) {
      next = updateEntry(p, at, e);
      expected[at] = { ...expected[at], reason: e.reason, expires: e.expires };
      done.push('updated');
    } else {
      next = appendEntry(p, e);
      expected.push(entry);
      done.push('added');
    }
    p = parse(checked(next, file, expected), file);
  }
  return { text: p.text, done };
}

function appendEntry(p: Parsed, e: NewEntry): string {
  const { text, eol } = p;
  if (p.seq) {
    const items = p.seq.items as Node[];
    const first = items[0];
    const dash = lineStart(text, first.range![0]);
    const indent = text.slice(dash, text.indexOf('-', dash));
    const end = nodeEnd(text, items[items.length - 1]);
    const before = end > 0 && text[end - 1] !== '\n' ? eol : '';
    return text.slice(0, end) + before + entryLines(e, indent, eol) + text.slice(end);
  }
  if (p.pair) {
    // `ignore:` with no entries (nothing, ~, null or []): the value's text goes, the list follows the key's line.
    const key = p.pair.key as Scalar;
    const value = p.pair.value as Node | null;
    let t = text;
    let keyLineEnd = lineEnd(t, key.range![0]);
    if (value && value.range && value.range[0] < keyLineEnd) {
      // The value and the spaces before it go (`ignore: []` -> `ignore:`); a comment after it stays.
      let from = value.range[0];
      while (from > 0 && t[from - 1] === ' ') from--;
      t = t.slice(0, from) + t.slice(value.range[1]);
      keyLineEnd = lineEnd(t, key.range![0]);
    }
    const before = keyLineEnd > 0 && t[keyLineEnd - 1] !== '\n' ? eol : '';
    return t.slice(0, keyLineEnd) + before + entryLines(e, '  ', eol) + t.slice(keyLineEnd);
  }
  const before = text === '' || text.endsWith('\n') ? '' : eol;
  return `${text}${before}ignore:${eol}${entryLines(e, '  ', eol)}`;
}

function updateEntry(p: Parsed, at: number, e: NewEntry): string {
  const item = p.seq!.items[at] as Node;
  if (!isMap(item)) throw new PolicyEditError(`entry ${at + 1} of the ignore list is not a mapping`);
  // The values are replaced from the last to the first, so the earlier ranges stay right.
  const changes: Array<[Node, string]> = [];
  for (const pair of (item as YAMLMap).items) {
    const k = isScalar(pair.key) ? pair.key.value : undefined;
    if (k === 'reason') changes.push([pair.value as Node, JSON.stringify(e.reason)]);
    if (k === 'expires') changes.push([pair.value as Node, e.expires]);
  }
  let t = p.text;
  for (const [node, value] of changes.sort((a, b) => b[0].range![0] - a[0].range![0])) {
    t = t.slice(0, node.range![0]) + value + t.slice(node.range![1]);
  }
  return t;
}

/**
 * Removes the entries `remove` picks (by their place in the list), each with its lines (a comment
 * after it on its lines too; comment lines above it stay: they may speak of the list). An emptied
 * list leaves `ignore:` with nothing (no entries).
 */
export function removeIgnores(text: string, file: string, remove: (entry: IgnoreEntry) => boolean): { text: string; removed: IgnoreEntry[] } {
  const p = parse(text, file);
  const removed = p.policy.ignore.filter(remove);
  if (removed.length === 0) return { text, removed };
  const items = p.seq!.items as Node[];
  let t = text;
  for (let i = items.length - 1; i >= 0; i--) {
    if (!remove(p.policy.ignore[i])) continue;
    const start = lineStart(t, items[i].range![0]);
    t = t.slice(0, start) + t.slice(nodeEnd(t, items[i]));
  }
  return { text: checked(t, file, p.policy.ignore.filter((e) => !remove(e))), removed };
}

/**
 * `--expires`: a day (2027-03-01, the entry applies up to and including it, UTC) or a number of days
 * or weeks from today (30d, 12w). A day before today is refused: the entry would never apply.
 */
export function parseExpiry(value: string, today: string): string {
  const v = value.trim();
  const dur = /^(\d+)\s*([dw])$/i.exec(v);
  let day: string;
  if (dur) {
    const n = Number(dur[1]) * (dur[2].toLowerCase() === 'w' ? 7 : 1);
    if (n <= 0) throw new PolicyEditError(`--expires: '${value}' is not a positive number of days or weeks`);
    day = new Date(Date.parse(`${today}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
  } else if (/^\d{4}-\d{2}-\d{2}$/.test(v) && new Date(`${v}T00:00:00Z`).toISOString().slice(0, 10) === v) {
    day = v;
  } else {
    throw new PolicyEditError(`--expires expects a day (2027-03-01) or a number of days or weeks from today (30d, 12w), got '${value}'`);
  }
  if (day < today) throw new PolicyEditError(`--expires ${value} is before today (${today}): the entry would never apply`);
  return day;
}
