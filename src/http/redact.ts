/** Keeping secrets out of every line svc prints. */
const SECRET_HEADERS = /token-secret|token-id|authorization|cookie|api-key/i;
/** Body fields whose values are credentials of their own (personal access tokens, webhook secrets...). */
const SECRET_FIELDS = /secret|token|password|passwd|credential|private.?key|api.?key|^pat$|accesskey/i;

export const REDACTED = '[redacted]';

export function redactHeaders(h: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(Object.entries(h).map(([k, v]) => [k, SECRET_HEADERS.test(k) ? REDACTED : String(v)]));
}

/** A copy of a JSON value with the values of credential-like fields replaced (for --verbose and --dry-run). */
export function redactBody(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactBody);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [
    k,
    SECRET_FIELDS.test(k) && v !== null && v !== undefined && typeof v !== 'object' && typeof v !== 'boolean' ? REDACTED : redactBody(v),
  ]));
}

/**
 * The one way svc prints a URL: never its userinfo. `http://user:pass@proxy:3128` -> `http://proxy:3128`.
 * A URL that does not parse (a password holding `/`, `#` or `?` ends the authority early) loses
 * everything between the scheme and its last `@`: where the password ends cannot be known, so
 * nothing of it is guessed at.
 */
export function redactUrl(raw: string): string {
  const at = raw.lastIndexOf('@');
  if (at >= 0) {
    const scheme = /^(?:[A-Za-z][A-Za-z0-9+.-]*:)?\/\//.exec(raw)?.[0] ?? '';
    return `${scheme}${raw.slice(at + 1)}`;
  }
  try {
    const u = new URL(raw);
    if (!u.username && !u.password) return raw;
    u.username = '';
    u.password = '';
    return u.href.replace(/\/$/, '');
  } catch {
    return raw;
  }
}

const MAX_LOGGED_BODY = 2048;

export function truncate(text: string, max = MAX_LOGGED_BODY): string {
  return text.length > max ? `${text.slice(0, max)}... (${text.length - max} more characters)` : text;
}

/**
 * Remove every occurrence of the given secrets from a text (the last line of defence before
 * printing), also in the forms a server echoing them back is likely to use: JSON-escaped (any of
 * JSON's escapes of any character: `\/` as PHP writes `/`, `\u0026` as Go writes `&`) and
 * percent-encoded.
 */
export function scrub(text: string, secrets: ReadonlyArray<string | undefined>): string {
  let out = text;
  for (const s of secrets) {
    const json = jsonForms(s);
    if (json) out = out.replace(json.all, REDACTED);
    for (const form of secretForms(s)) out = out.split(form).join(REDACTED);
  }
  return out;
}

/** The forms of a secret that scrub() removes as they are: as is, JSON-escaped, percent-encoded (none for one under 4 characters). */
export function secretForms(s: string | undefined): string[] {
  if (!s || s.length < 4) return [];
  return [...new Set([s, JSON.stringify(s).slice(1, -1), encodeURIComponent(s)])];
}

/** JSON's two-character escapes. */
const SHORT: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', '\b': 'b', '\f': 'f', '\n': 'n', '\r': 'r', '\t': 't' };
const reEscape = (c: string) => c.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');

interface JsonForms {
  /** Every occurrence (global). */
  all: RegExp;
  /** Whether there is one. */
  any: RegExp;
  /**
   * The longest run of letters and digits in the secret (4 or more): JSON serializers write them as
   * they are (inference: none escapes a letter), so an answer without it cannot echo the secret.
   */
  run?: string;
}
const jsonCache = new Map<string, JsonForms>();

/**
 * The secret as a JSON string may write it: each character as itself (where JSON allows it), by its
 * two-character escape, or as `\uXXXX` (hex in either case). Undefined for one under 4 characters.
 */
export function jsonForms(s: string | undefined): JsonForms | undefined {
  if (!s || s.length < 4) return undefined;
  let f = jsonCache.get(s);
  if (f) return f;
  let source = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    const code = c.charCodeAt(0);
    const alts: string[] = [];
    if (code >= 0x20 && c !== '"' && c !== '\\') alts.push(reEscape(c));
    if (SHORT[c] !== undefined) alts.push(`\\\\${reEscape(SHORT[c])}`);
    const hex = code.toString(16).padStart(4, '0').replace(/[a-f]/g, (h) => `[${h}${h.toUpperCase()}]`);
    alts.push(`\\\\u${hex}`);
    source += `(?:${alts.join('|')})`;
  }
  // At an escape's start: after an even run of backslashes (`\\u0026` is a backslash and the text u0026).
  source = `(?<=(?:^|[^\\\\])(?:\\\\\\\\)*)${source}`;
  const runs = s.match(/[A-Za-z0-9]{4,}/g) ?? [];
  const run = runs.reduce<string | undefined>((a, b) => (a === undefined || b.length > a.length ? b : a), undefined);
  f = { all: new RegExp(source, 'g'), any: new RegExp(source), ...(run !== undefined ? { run } : {}) };
  jsonCache.set(s, f);
  return f;
}
