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
 * printing), also in the forms a server echoing them back is likely to use: JSON-escaped and
 * percent-encoded.
 */
export function scrub(text: string, secrets: ReadonlyArray<string | undefined>): string {
  let out = text;
  for (const s of secrets) {
    for (const form of secretForms(s)) out = out.split(form).join(REDACTED);
  }
  return out;
}

/** The forms of a secret that scrub() removes: as is, JSON-escaped, percent-encoded (none for one under 4 characters). */
export function secretForms(s: string | undefined): string[] {
  if (!s || s.length < 4) return [];
  return [...new Set([s, JSON.stringify(s).slice(1, -1), encodeURIComponent(s)])];
}
