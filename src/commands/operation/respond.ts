/** Shared tail of every API command: check the response shape leniently and render it. */
import type { Context } from '../../context.js';
import type { Operation } from '../../operations/types.js';
import { present } from '../../output/present.js';
import { issueText } from '../../operations/fields.js';

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
  await present(ctx, data, { columns: op.columns, rows: op.rows });
}
