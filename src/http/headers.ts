/** The two token headers every request carries (spec: Authentication). */
import { AuthError } from '../core/errors.js';
export const TOKEN_ID_HEADER = 'X-Service-API-Token-Id';
export const TOKEN_SECRET_HEADER = 'X-Service-API-Token-Secret';

/**
 * A header value must go out exactly as given: visible ASCII only (no line breaks that would split the
 * request, no characters sent as a different byte). Names what is wrong, never the value itself.
 */
export function headerValueProblem(value: string): string | undefined {
  if (value === '') return 'is empty';
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c >= 0x21 && c <= 0x7e) continue;
    const what = c === 0x0d ? 'a carriage return (\\r)' : c === 0x0a ? 'a line break (\\n)' : c === 0x20 || c === 0x09 ? 'white space' : c < 0x20 || c === 0x7f ? 'a control character' : 'a non-ASCII character';
    return `holds ${what} at position ${i + 1}, which cannot be sent in an HTTP header`;
  }
  return undefined;
}

/** Throws exit 3 (credentials) naming `what`; the value itself is never printed. */
export function checkHeaderValue(value: string, what: string, hint = 'copy it again from the dashboard (visible ASCII characters only)'): void {
  const problem = headerValueProblem(value);
  if (problem) throw new AuthError(`${what} ${problem}; nothing was sent`, hint);
}
