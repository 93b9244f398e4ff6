/**
 * What a bulk action would do, drawn for a person (issue 36.5): the issues as `svc issues search`
 * draws them (the confirmation of --where, the --dry-run on a terminal), and one request as an
 * example. In a pipe, or with -o json/ndjson, --dry-run stays every request as data (bulk.ts).
 */
import { terminalWidth } from '../core/host.js';
import type { Context } from '../context.js';
import type { Operation } from '../operations/types.js';
import { tableRenderers } from '../output/render.js';
import { SAME_ON_EVERY_ROW } from '../output/layout.js';
import { REDACTED } from '../http/redact.js';
import { terminalJson } from '../core/sanitize.js';
import { count } from '../terminal/progress.js';

/**
 * Issues drawn as `svc issues search` draws them: its default columns, fitted to the terminal the
 * table goes to, a column the same on every row said once under it. Columns left out for width are
 * not named (a preview takes no --columns). Ids with nothing known of them but the id: an ID column.
 * Plain text: stderr's lines are cleaned of escape sequences, colour too.
 */
export async function issueTable(ctx: Context, search: Operation, issues: readonly Record<string, unknown>[], stream: 'stdout' | 'stderr'): Promise<string> {
  const { rowsTable } = await tableRenderers();
  const notes: string[] = [];
  const columns = issues.some((i) => Object.keys(i).length > 1) ? search.columns : ['id'];
  const table = rowsTable(issues, columns, {
    color: stream === 'stdout' && ctx.color, pretty: true, now: ctx.now(), width: terminalWidth(ctx, stream), mayHide: true, dropUniform: true,
    note: (l) => { if (l.startsWith(SAME_ON_EVERY_ROW)) notes.push(l); },
  });
  return table + notes.map((l) => `${l}\n`).join('');
}

interface DryRun {
  op: Operation;
  /** The ids, each once, in the order they would be sent. */
  order: string[];
  /** What a request of one id looks like (describeRequest's form, token headers redacted). */
  request: (id: string) => Record<string, unknown>;
  /** The issues --where found, by id, with the search's fields; `search`, to draw them. */
  found?: ReadonlyMap<string, Record<string, unknown>>;
  search?: Operation;
}

/**
 * --dry-run on a terminal: the issues the action would change as a table (what --where found of
 * them, else their ids), then one request, the first, as the example of all: they differ only in
 * the id. Nothing is sent.
 */
export async function printDryRunPreview(ctx: Context, d: DryRun): Promise<void> {
  if (d.order.length === 0) { ctx.note('Dry run: no request would be sent.'); return; }
  const field = d.op.positional ?? 'id';
  const rows = d.order.map((id) => d.found?.get(id) ?? { id });
  const noun = d.op.group === 'issues' ? 'issue' : 'id';
  ctx.note(`Dry run: svc ${d.op.group} ${d.op.name} would send ${count(d.order.length)} request${d.order.length === 1 ? '' : 's'}, one per ${noun}; none is sent.`);
  ctx.out(d.search && d.found?.size ? await issueTable(ctx, d.search, rows, 'stdout') : await idTable(ctx, rows));
  const first = d.request(d.order[0]);
  const body = JSON.stringify(first.body, null, 2);
  ctx.out([
    '',
    d.order.length === 1 ? 'The request:' : `The request of ${d.order[0]}; the other ${count(d.order.length - 1)} differ only in ${field}:`,
    `  ${String(first.method)} ${String(first.url)}`,
    `  (headers: the token id and secret, ${REDACTED} here)`,
    ...(ctx.io.stdoutIsTTY ? terminalJson(body) : body).split('\n').map((l) => `  ${l}`),
    '',
  ].join('\n'));
  ctx.note('-o json prints every request in full.');
}

async function idTable(ctx: Context, rows: readonly Record<string, unknown>[]): Promise<string> {
  const { rowsTable } = await tableRenderers();
  return rowsTable(rows, ['id'], { color: ctx.color, pretty: true, now: ctx.now(), width: terminalWidth(ctx) });
}
