/** Keeping secrets out of every line svc prints. */
const SECRET_HEADERS = /token-secret|token-id|authorization|cookie/i;

export function redactHeaders(h: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(h).map(([k, v]) => [k, SECRET_HEADERS.test(k) ? '[redacted]' : v]));
}

export const MAX_LOGGED_BODY = 2048;

export function truncate(text: string, max = MAX_LOGGED_BODY): string {
  return text.length > max ? `${text.slice(0, max)}... (${text.length - max} more bytes)` : text;
}

/** Remove every occurrence of the given secrets from a text (last line of defence before printing). */
export function scrub(text: string, secrets: ReadonlyArray<string | undefined>): string {
  let out = text;
  for (const s of secrets) if (s && s.length >= 4) out = out.split(s).join('[redacted]');
  return out;
}
