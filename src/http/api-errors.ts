/** One error class per kind of HTTP failure, each with its exit code. */
import { CliError } from '../core/errors.js';
import { EXIT, type ExitCode } from '../core/exit-codes.js';
import { stripControls } from '../core/sanitize.js';

export class ApiError extends CliError {
  constructor(message: string, exitCode: ExitCode, readonly status?: number, hint?: string, readonly retryAfterMs?: number) {
    super(message, exitCode, hint);
  }
}
/** 400 and other refusals of the request itself. */
export class BadRequestError extends ApiError {
  constructor(message: string, status?: number, hint?: string) { super(message, EXIT.REJECTED, status, hint); }
}
/** 401/403: the token. */
export class UnauthorizedError extends ApiError {
  constructor(message: string, status?: number, hint?: string) { super(message, EXIT.AUTH, status, hint); }
}
export class NotFoundError extends ApiError {
  constructor(message: string, status?: number, hint?: string) { super(message, EXIT.NOT_FOUND, status, hint); }
}
/** 429: transient (exit 6, "may work later"), never 5 ("your request is wrong"): CI scripts retry on 6. */
export class RateLimitedError extends ApiError {
  constructor(message: string, status?: number, hint?: string, retryAfterMs?: number) { super(message, EXIT.NETWORK, status, hint, retryAfterMs); }
}
/** 5xx and 408: the service failed. */
export class ServerError extends ApiError {
  constructor(message: string, status?: number, hint?: string, retryAfterMs?: number) { super(message, EXIT.NETWORK, status, hint, retryAfterMs); }
}
/**
 * The request did not complete at the network level. `neverSent` when it provably never reached
 * the server; `permanent` when trying again cannot help (a certificate the system does not trust).
 */
export class ConnectionError extends ApiError {
  constructor(message: string, readonly neverSent: boolean, hint?: string, readonly permanent = false) { super(message, EXIT.NETWORK, undefined, hint); }
}
export class TimeoutError extends ApiError {
  constructor(message: string, readonly phase: 'connect' | 'headers' | 'body', hint?: string) { super(message, EXIT.NETWORK, undefined, hint); }
}
export class ResponseError extends ApiError {
  constructor(message: string, status?: number, hint?: string) { super(message, EXIT.BAD_RESPONSE, status, hint); }
}

/** Strings, or records' `message` (after their `field`, `path` or `property`), of a list or one value; '' when none. */
function texts(v: unknown): string {
  const one = (x: unknown): string => {
    if (typeof x === 'string') return x;
    if (x === null || typeof x !== 'object' || typeof (x as { message?: unknown }).message !== 'string') return '';
    const r = x as Record<string, unknown>;
    const field = [r.field, r.path, r.property].find((f) => typeof f === 'string' && f !== '');
    return field !== undefined ? `${String(field)}: ${String(r.message)}` : String(r.message);
  };
  return (Array.isArray(v) ? v.map(one) : [one(v)]).filter((t) => t !== '').join('; ');
}

/**
 * The service's message from an error body of any shape (the field notes: "never assume the shape"):
 * `{error}`, `{error:{message,code,requestId}}`, `{message}` (a string or a list: frameworks' validation
 * errors, `{statusCode, message: [...], error: "Bad Request"}`), `{errors: [{field, message}]}`,
 * problem+json's `detail`, or text. The words that say what to fix come first; a bare status phrase
 * beside them in parentheses.
 */
export function errorMessage(text: string): string {
  let msg = text.trim();
  try {
    const body: unknown = JSON.parse(text);
    if (body && typeof body === 'object') {
      const b = body as Record<string, unknown>;
      const e = b.error;
      const said = [texts(b.message), texts(b.errors), typeof b.detail === 'string' ? b.detail : ''].filter((t) => t !== '').join('; ');
      if (e && typeof e === 'object' && !Array.isArray(e)) {
        const eo = e as Record<string, unknown>;
        msg = [eo.message, eo.code && `code ${String(eo.code)}`, eo.requestId && `request ${String(eo.requestId)}`].filter(Boolean).join(', ');
      } else if (typeof e === 'string' && e !== '') msg = said !== '' && said !== e ? `${said} (${e})` : e;
      else if (said !== '') msg = said;
      else msg = JSON.stringify(body);
    }
  } catch { /* not JSON: keep the text */ }
  // Whole escape sequences out (not just their ESC), then one line.
  msg = stripControls(msg).replace(/\s+/g, ' ').trim();
  return msg.length > 300 ? msg.slice(0, 297) + '...' : msg;
}

/** `30 s`, `2 min 5 s`: how long the service asked to wait; beyond a day (`Retry-After: 99999999999999999999`) not spelled out. */
function retryAfterText(ms: number): string {
  const sec = Math.max(0, Math.round(ms / 1000));
  if (sec >= 86_400) return 'more than a day';
  return sec < 120 ? `${sec} s` : `${Math.floor(sec / 60)} min${sec % 60 ? ` ${sec % 60} s` : ''}`;
}

const DEFAULT_AUTH_HINT = 'check the token with `svc auth status`, or log in again with `svc auth login`';

/**
 * Map a non-2xx status to its error class. `safe`: a read (a failed mutation may still have taken effect).
 * `authHint`: what to do on 401/403, naming where the credentials in use came from.
 */
export function statusError(status: number, what: string, text: string, retryAfterMs?: number, safe = true, authHint = DEFAULT_AUTH_HINT, sentId = true): ApiError {
  const detail = errorMessage(text);
  const msg = `${what} failed: HTTP ${status}${detail ? `: ${detail}` : ''}`;
  if (status === 401 || status === 403) return new UnauthorizedError(msg, status, authHint);
  // The service's own words name what was not found (an issue id): the path is fine, the id is not.
  // A request that names no id (orgs list, stats): what was not found is the path, so the base URL
  // (a path prefix such as /api or /svc before svc's own /api/v1) is what to check, not an id.
  if (status === 404 && !sentId) return new NotFoundError(msg, status, 'the request names no id, so the path was not found: check the base URL and its path prefix (`svc auth status` shows it and where it comes from)');
  if (status === 404) return new NotFoundError(msg, status, detail ? 'check the id' : 'check the id or path; `svc api` calls any path');
  if (status === 429) {
    // Transient (exit 6, "may work later"), never 5 ("your request is wrong"): CI scripts retry on 6.
    const wait = retryAfterMs === undefined ? 'the service gave no Retry-After' : `Retry-After: ${retryAfterText(retryAfterMs)}`;
    return new RateLimitedError(`${what}: rate-limited: retry later (HTTP 429, ${wait})${detail ? `: ${detail}` : ''}`, status, 'the service limits the request rate: run again later, or raise --retries', retryAfterMs);
  }
  const unsure = 'the change may or may not have been made: check before repeating it';
  // Not a status HTTP defines (600 and up): no server error to wait out, an answer svc cannot read (7).
  if (status >= 600) return new ResponseError(`${msg}: not a status HTTP defines`, status, 'check the base URL: something other than the service answered');
  if (status >= 500) return new ServerError(msg, status, safe ? 'the service failed; try again later (reads are retried, see --retries)' : `the service failed; ${unsure}`, retryAfterMs);
  if (status === 408) return new ServerError(msg, status, safe ? 'the service timed out; try again' : `the service timed out; ${unsure}`, retryAfterMs);
  // The service said what is wrong: the advice is to fix that, not to read --help.
  return new BadRequestError(msg, status, detail ? 'fix what the service names (--dry-run shows the body sent)' : 'the service rejected the request; see `--help` for the fields, or --dry-run to see the body');
}
