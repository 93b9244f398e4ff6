/**
 * Numbers the service sent that a JSON double does not hold as written: beyond the double's range
 * (`1e400` parses to Infinity, which JSON.stringify writes as null), a non-zero too small for it
 * (`1e-400` parses to 0), an integer or decimal with more digits than a double keeps
 * (`12345678901234567890` parses to 12345678901234567168, written 12345678901234567000), and `-0`
 * (written 0). svc writes such a number as the service's own text where it writes JSON
 * (output/exact-json.ts), and says so on stderr where it cannot (--jq, --columns).
 *
 * The cost is paid only by an answer whose text is not exactly `JSON.stringify` of its parse
 * (answers/json-text.ts isCanonical, which the client checks anyway): a canonical text holds no such
 * number, since JSON.stringify never writes one. For other texts, one walk finds the number tokens
 * whose value, written back, reads as another number, and records where they are (the object or
 * list holding each, and its key) in WeakMaps: the parsed data itself is left as JSON.parse made it.
 */

/** One number written differently than sent: where, the service's text, and the double parsed from it. */
export interface InexactNumber {
  /** The field's path in the answer (or item): `hours`, `issues[3].confidence`. */
  path: string;
  /** The number as the service wrote it. */
  text: string;
  /** What JSON.parse made of it. */
  value: number;
}

/** The inexact numbers of a parsed answer (or listing item), by its root. */
const found = new WeakMap<object, InexactNumber[]>();
/** For each object or list holding one: its key -> the service's text and the parsed double. */
const holders = new WeakMap<object, Map<string, InexactNumber>>();
/** Whether this process has recorded one (until then JSON output takes JSON.stringify's path). */
let seen = false;

/** Whether any answer or item of this run held a number a double does not hold. */
export function sawInexact(): boolean {
  return seen;
}

const DIGIT_0 = 0x30;
const DIGIT_9 = 0x39;
const MINUS = 0x2d;

/** A number's decimal value as one spelling: sign, significant digits without leading or trailing zeros, exponent. */
function decimal(text: string): string {
  let s = text;
  let sign = '';
  if (s.charCodeAt(0) === MINUS) { sign = '-'; s = s.slice(1); }
  let exp = 0;
  const e = s.search(/[eE]/);
  if (e >= 0) { exp = Number(s.slice(e + 1)); s = s.slice(0, e); }
  const dot = s.indexOf('.');
  if (dot >= 0) { exp -= s.length - dot - 1; s = s.slice(0, dot) + s.slice(dot + 1); }
  let a = 0;
  while (a < s.length && s.charCodeAt(a) === DIGIT_0) a++;
  let b = s.length;
  while (b > a && s.charCodeAt(b - 1) === DIGIT_0) { b--; exp++; }
  if (a === b) return '0';
  return `${sign}${s.slice(a, b)}e${exp}`;
}

/** Whether the number token, parsed and written back by JSON, would read as another number. */
export function changedByDouble(token: string, value = Number(token)): boolean {
  if (!Number.isFinite(value)) return true;
  if (value === 0) return token.charCodeAt(0) === MINUS || decimal(token) !== '0';
  // At most 15 digits and no exponent: a double holds it exactly.
  if (token.length <= 15 && !/[eE]/.test(token)) return false;
  return decimal(token) !== decimal(String(value));
}

/**
 * Whether a JSON text may hold a number a double changes: false when it surely holds none. Such a
 * token has an exponent (a digit then e or E), 16 or more digits (a double keeps every number of 15
 * significant digits), or is -0 (`-0`, `-0.00`). Strings may match too (a hash, a long id): then
 * the exact check (canonical text, then inexactTokens) decides. One regular-expression pass, for
 * items that are not already checked by the parse of a whole answer (page-decode.ts).
 */
const RISKY = /[0-9][eE]|[0-9.]{16}|-0(?:\.0+)?(?![0-9.eE])/;
export function mayHoldInexact(text: string): boolean {
  return RISKY.test(text);
}

type Key = string | number;

function pathText(keys: readonly Key[]): string {
  let out = '';
  for (const k of keys) out += typeof k === 'number' ? `[${k}]` : out === '' ? k : `.${k}`;
  return out;
}

/**
 * The number tokens of a JSON text (valid: it parsed) that a double changes, each with its keys from
 * the top. One walk; strings are skipped with indexOf.
 */
export function inexactTokens(text: string): Array<{ keys: Key[]; text: string }> {
  const out: Array<{ keys: Key[]; text: string }> = [];
  const keys: Key[] = [];
  const isList: boolean[] = [];
  let expectKey = false;
  for (let j = 0; j < text.length; j++) {
    const c = text.charCodeAt(j);
    if (c === 0x22 /* " */) {
      let end = j;
      for (;;) {
        end = text.indexOf('"', end + 1);
        if (end < 0) return out;
        let k = end - 1;
        while (text.charCodeAt(k) === 0x5c) k--;
        if ((end - 1 - k) % 2 === 0) break;
      }
      if (expectKey) {
        const raw = text.slice(j + 1, end);
        keys[keys.length - 1] = raw.includes('\\') ? (JSON.parse(text.slice(j, end + 1)) as string) : raw;
        expectKey = false;
      }
      j = end;
    } else if (c === 0x7b /* { */) {
      keys.push('');
      isList.push(false);
      expectKey = true;
    } else if (c === 0x5b /* [ */) {
      keys.push(0);
      isList.push(true);
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      keys.pop();
      isList.pop();
    } else if (c === 0x2c /* , */) {
      if (isList[isList.length - 1]) (keys[keys.length - 1] as number)++;
      else expectKey = true;
    } else if (c === MINUS || (c >= DIGIT_0 && c <= DIGIT_9)) {
      let end = j + 1;
      for (; end < text.length; end++) {
        const d = text.charCodeAt(end);
        if (!((d >= DIGIT_0 && d <= DIGIT_9) || d === 0x2e || d === 0x65 || d === 0x45 || d === 0x2b || d === MINUS)) break;
      }
      const token = text.slice(j, end);
      if (changedByDouble(token)) out.push({ keys: [...keys], text: token });
      j = end - 1;
    }
  }
  return out;
}

/**
 * Records the numbers of `text` that `data` (its parse) does not hold as written; for an answer
 * whose text is not canonical. Returns them (empty: none).
 */
export function noteInexact(text: string, data: unknown): InexactNumber[] {
  if (data === null || typeof data !== 'object') return [];
  const list: InexactNumber[] = [];
  for (const t of inexactTokens(text)) {
    let holder: unknown = data;
    for (const k of t.keys.slice(0, -1)) holder = holder !== null && typeof holder === 'object' ? (holder as Record<string, unknown>)[k] : undefined;
    const last = t.keys[t.keys.length - 1];
    if (holder === null || typeof holder !== 'object' || last === undefined) continue;
    const value = (holder as Record<string, unknown>)[last];
    // A key given twice deeper than the key check looks: JSON.parse kept the other value.
    if (typeof value !== 'number' || !Object.is(value, Number(t.text))) continue;
    const n: InexactNumber = { path: pathText(t.keys), text: t.text, value };
    let m = holders.get(holder);
    if (!m) holders.set(holder, (m = new Map()));
    m.set(String(last), n);
    list.push(n);
  }
  if (list.length) { found.set(data, list); seen = true; }
  return list;
}

/** The inexact numbers recorded for a parsed answer or item; undefined when none. */
export function inexactIn(data: unknown): readonly InexactNumber[] | undefined {
  return data !== null && typeof data === 'object' ? found.get(data) : undefined;
}

/** The inexact number that `holder[key]` is, if it still holds the double parsed from it. */
export function inexactAt(holder: object, key: string, value: unknown): InexactNumber | undefined {
  const n = holders.get(holder)?.get(key);
  return n && Object.is(n.value, value) ? n : undefined;
}

/**
 * The numbers recorded for a whole page that lie in its list `key`, recorded for each item instead
 * (paths from the item), for code that writes items one by one.
 */
export function splitInexact(page: unknown, key: string): void {
  const list = inexactIn(page);
  const items = page !== null && typeof page === 'object' ? (page as Record<string, unknown>)[key] : undefined;
  if (!list || !Array.isArray(items)) return;
  const prefix = `${key}[`;
  for (const n of list) {
    if (!n.path.startsWith(prefix)) continue;
    const close = n.path.indexOf(']', prefix.length);
    const item: unknown = items[Number(n.path.slice(prefix.length, close))];
    if (item === null || typeof item !== 'object') continue;
    const rest = n.path.slice(close + 1).replace(/^\./, '');
    const mine = found.get(item) ?? [];
    mine.push({ ...n, path: rest });
    seen = true;
    found.set(item, mine);
  }
}

/** `copy` is a shallow copy of `data` (same values, same keys): its numbers are recorded for it too. */
export function carryInexact(data: unknown, copy: unknown): void {
  if (data === null || typeof data !== 'object' || copy === null || typeof copy !== 'object' || data === copy) return;
  const list = found.get(data);
  if (list) found.set(copy, list);
  const own = holders.get(data);
  if (own) holders.set(copy, own);
}

/** An answer that is itself such a number (possible only through `svc api`): its text, for the output. */
let bare: InexactNumber | undefined;

/** Records an answer that is a bare number, when a double changes it. */
export function noteBareNumber(text: string, value: number): void {
  const token = text.trim();
  if (!changedByDouble(token, value)) return;
  bare = { path: '(the answer)', text: token, value };
  seen = true;
}

/** The bare-number answer that `value` is, if one was recorded. */
export function bareInexact(value: unknown): InexactNumber | undefined {
  return typeof value === 'number' && bare && Object.is(bare.value, value) ? bare : undefined;
}

/** `holder[key]` (a copy svc made, e.g. a row cut down by --columns) holds the recorded number `n`. */
export function markInexact(holder: object, key: string, n: InexactNumber): void {
  let m = holders.get(holder);
  if (!m) holders.set(holder, (m = new Map()));
  m.set(key, n);
  seen = true;
}
