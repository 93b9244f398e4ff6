/** Shared tail of every API command: check the response shape leniently and render it. */
import type { Context } from '../context.js';
import type { Operation } from '../operations/types.js';
import { render, type RenderOptions } from './render.js';
import { checkJq } from './jq.js';
import { outputSink } from './print-json.js';
import { checkColumns, parseColumns } from './columns.js';
import { fieldPaths, rowSchema } from '../operations/fields.js';
import { anyObject, issueText } from '../operations/fields.js';
import { ResponseError } from '../http/errors.js';

/** The columns to show: --columns (the one parser), else the row's defaults. */
export function columnsFor(ctx: Context, defaults: string[]): string[] {
  const chosen = ctx.globals.columns;
  return chosen !== undefined ? parseColumns(chosen) : defaults;
}

/**
 * Output settings checked before anything is sent: the format, --columns against the fields the
 * row's schema declares, and the --jq expression compiled (both exit 2 when wrong).
 */
export async function checkOutput(ctx: Context, op?: Pick<Operation, 'response' | 'rows' | 'group' | 'name'>): Promise<void> {
  ctx.format();
  if (ctx.globals.columns !== undefined) {
    const columns = parseColumns(ctx.globals.columns);
    if (op) checkColumns(columns, fieldPaths(rowSchema(op.response, op.rows)), `${op.group} ${op.name}`);
  }
  if (ctx.globals.jq !== undefined) await checkJq(ctx.globals.jq);
}

/** How a command's data is rendered: format, columns, detail view, --jq. */
function renderOptions(ctx: Context, op: Pick<Operation, 'rows' | 'columns'> & Partial<Operation>, request?: Record<string, unknown>): RenderOptions {
  return {
    format: ctx.format(),
    columns: columnsFor(ctx, op.columns),
    project: ctx.globals.columns !== undefined,
    rowsPath: op.rows,
    pretty: ctx.io.stdoutIsTTY,
    color: ctx.color,
    width: ctx.io.columns,
    jq: ctx.globals.jq,
    detail: op.detail,
    request,
  };
}

/**
 * A 2xx whose body does not have the shape the spec (or the field notes) defines is not a success:
 * exit 7, whatever the command (a single call, `--all`, a follow-up). Where the spec shows no fields
 * (`anyObject`), any JSON is taken, with a warning when it is not even an object.
 */
export function checkShape(ctx: Context, op: Operation, data: unknown): void {
  const result = op.response.safeParse(data);
  if (result.success) return;
  const issue = result.error.issues[0];
  const where = issue.path.length ? issue.path.join('.') : 'the body';
  const got = data === null ? 'null (or an empty body)' : Array.isArray(data) ? 'a list' : typeof data;
  if (op.response === anyObject) {
    ctx.warn(`the response of ${op.group} ${op.name} is ${got}, not an object; showing it as received`);
    return;
  }
  throw new ResponseError(
    `the response of ${op.group} ${op.name} does not have the documented shape: ${where} ${issueText(issue)}${issue.path.length ? '' : ` (got ${got})`}`,
    undefined,
    'check the base URL and the service version; --verbose shows the answer as received',
  );
}

export async function renderResponse(ctx: Context, op: Pick<Operation, 'rows' | 'columns'> & Partial<Operation>, data: unknown, request?: Record<string, unknown>): Promise<void> {
  if (op.response && op.group) checkShape(ctx, op as Operation, data);
  await render(data, renderOptions(ctx, op, request), outputSink(ctx));
}
