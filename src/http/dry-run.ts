/** `--dry-run`: the request as it would be sent, printed instead of sent (every command that calls the API). */
import { UsageError } from '../core/errors.js';
import { REDACTED, redactBody } from './redact.js';
import { TOKEN_ID_HEADER, TOKEN_SECRET_HEADER } from './headers.js';

/** What --dry-run uses of the Context: where the request would go, and stdout. */
interface DryRunContext {
  target(): { baseUrl: string };
  out(text: string): void;
}

/**
 * What `--dry-run` prints: the request as it would be sent, the token headers and credential-like
 * body fields redacted. A bad base URL is reported as it would be without --dry-run; a missing one
 * shows as `<base-url>`.
 */
export function describeRequest(ctx: DryRunContext, path: string, body: unknown): Record<string, unknown> {
  let base = '<base-url>';
  try {
    base = ctx.target().baseUrl;
  } catch (err) {
    if (!(err instanceof UsageError && /^no (API|development) base URL/.test(err.message))) throw err;
  }
  return {
    method: 'POST',
    url: base + path,
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      [TOKEN_ID_HEADER.toLowerCase()]: REDACTED,
      [TOKEN_SECRET_HEADER.toLowerCase()]: REDACTED,
    },
    body: redactBody(body),
  };
}

/** Print the request on stdout as JSON: what every command does under --dry-run. */
export function printDryRun(ctx: DryRunContext, path: string, body: unknown): void {
  ctx.out(JSON.stringify(describeRequest(ctx, path, body), null, 2) + '\n');
}
