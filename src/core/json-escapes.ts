/**
 * A secret as a JSON string may write it: each character as itself (where JSON allows it), by its
 * two-character escape (`\/` as PHP writes `/`), or as `\uXXXX` (`\u0026` as Go writes `&`, hex in
 * either case). Loaded by http/client.ts only for an answer that may echo the token secret so (it
 * holds a backslash and the secret's longest run of letters and digits: http/redact.ts secretRun).
 */

/** JSON's two-character escapes. */
const SHORT: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', '\b': 'b', '\f': 'f', '\n': 'n', '\r': 'r', '\t': 't' };
const reEscape = (c: string) => c.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');

interface JsonForms {
  /** Every occurrence (global). */
  all: RegExp;
  /** Whether there is one. */
  any: RegExp;
}
const jsonCache = new Map<string, JsonForms>();

/** The patterns of a secret's JSON forms (above); undefined for one under 4 characters. */
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
  f = { all: new RegExp(source, 'g'), any: new RegExp(source) };
  jsonCache.set(s, f);
  return f;
}

