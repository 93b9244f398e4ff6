/** Keeping secrets out of every line svc prints. */
const SECRET_HEADERS = /token-secret|token-id|authorization|cookie|api-key/i;
/** Body fields whose values are credentials of their own (personal access tokens, webhook secrets...). */
const SECRET_FIELDS = /secret|token|password|passwd|credential|private.?key|api.?key|^pat$|accesskey/i;

export const REDACTED = '[redacted]';

/** The userinfo of every URL in a text (a redirect's `Location`, a `Link` header): up to the authority's last `@`. */
const URL_USERINFO = /([A-Za-z][A-Za-z0-9+.-]*:\/\/)[^\s/<>"]*@/g;

export function redactHeaders(h: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(Object.entries(h).map(([k, v]) => [k, SECRET_HEADERS.test(k) ? REDACTED : String(v).replace(URL_USERINFO, '$1')]));
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
    const json = escapedForms?.(s);
    if (json) out = out.replace(json.all, REDACTED);
    for (const form of secretForms(s)) out = out.split(form).join(REDACTED);
  }
  return out;
}

/**
 * The forms of a secret that scrub() removes as they are: as is, JSON-escaped, percent-encoded with
 * its hex in either case (`%2F`; `%2f` as .NET's UrlEncode writes it) (none for one under 4 characters).
 */
export function secretForms(s: string | undefined): string[] {
  if (!s || s.length < 4) return [];
  const percent = encodeURIComponent(s);
  return [...new Set([s, JSON.stringify(s).slice(1, -1), percent, percent.replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase())])];
}

/** The JSON forms of a secret (core/json-escapes.ts jsonForms), once http/client.ts has loaded them. */
type JsonFormsOf = (s: string | undefined) => { all: RegExp } | undefined;
let escapedForms: JsonFormsOf | undefined;

/**
 * From now on scrub() also removes a secret in any JSON form (`\/`, `\u0026`). http/client.ts loads
 * core/json-escapes.ts and hands it here only for an answer that may echo a secret so: the plain
 * call loads and compiles none of it.
 */
export function useJsonForms(f: JsonFormsOf): void {
  escapedForms = f;
}

/**
 * The longest run of letters and digits in a secret (4 or more), undefined when it has none: JSON
 * serializers write letters and digits as they are (inference: none escapes them), so an answer
 * without this run cannot echo the secret in any JSON form.
 */
export function secretRun(s: string | undefined): string | undefined {
  if (!s || s.length < 4) return undefined;
  // A loop, not a regular expression: this runs on every call, and a pattern's compilation costs more.
  let best: string | undefined;
  let start = -1;
  for (let i = 0; i <= s.length; i++) {
    const c = i < s.length ? s.charCodeAt(i) : 0;
    if ((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122)) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      if (i - start >= 4 && (best === undefined || i - start > best.length)) best = s.slice(start, i);
      start = -1;
    }
  }
  return best;
}
