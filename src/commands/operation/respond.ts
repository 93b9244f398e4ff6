/** Shared tail of every API command: check the response shape leniently and render it. */
import type { Context } from '../../context.js';
import type { Operation } from '../../operations/types.js';
import { render } from '../../output/render.js';
import { issueText } from '../../operations/fields.js';
import { REDACTED, redactBody } from '../../http/redact.js';
import { TOKEN_ID_HEADER, TOKEN_SECRET_HEADER } from '../../http/headers.js';
import { UsageError } from '../../errors.js';

export function columnsFor(ctx: Context, defaults: string[]): string[] {
  const chosen = ctx.globals.columns;
  return chosen ? chosen.split(',').map((c) => c.trim()).filter(Boolean) : defaults;
}

/** Warn (once, on stderr) when a response does not have the documented shape; output stays as received. */
export function checkShape(ctx: Context, op: Operation, data: unknown): void {
  const result = op.response.safeParse(data);
  if (result.success) return;
  const issue = result.error.issues[0];
  const where = issue.path.length ? issue.path.join('.') : 'the body';
  ctx.warn(`the response of ${op.group} ${op.name} does not match the documented shape: ${where} ${issueText(issue)}; showing it as received`);
}

export async function renderResponse(ctx: Context, op: Pick<Operation, 'rows' | 'columns'> & Partial<Operation>, data: unknown): Promise<void> {
  if (op.response && op.group) checkShape(ctx, op as Operation, data);
  await render(data, {
    format: ctx.format(),
    columns: columnsFor(ctx, op.columns),
    rowsPath: op.rows,
    pretty: ctx.io.stdoutIsTTY,
    color: ctx.color,
    width: ctx.io.columns,
  }, { out: ctx.out, note: ctx.note });
}

/**
 * What `--dry-run` prints: the request as it would be sent, the token headers and credential-like
 * body fields redacted. A bad base URL is reported as it would be without --dry-run; a missing one
 * shows as `<base-url>`.
 */
export function describeRequest(ctx: Context, path: string, body: unknown): Record<string, unknown> {
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
