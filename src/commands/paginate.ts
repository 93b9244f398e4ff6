/** `--all`: every page of a listing, checked against the total the service reports. */
import type { Context } from '../context.js';
import type { Operation } from '../operations/types.js';
import { ResponseError } from '../http/errors.js';
import { getPath } from '../output/paths.js';
import { renderResponse } from './respond.js';
import type { OperationOptions } from './run-operation.js';

export async function runAllPages(ctx: Context, op: Operation, body: Record<string, unknown>, _opts: OperationOptions): Promise<void> {
  const p = op.pagination!;
  const client = await ctx.client();
  const pageSize = typeof body[p.pageSize] === 'number' ? (body[p.pageSize] as number) : p.maxPageSize;
  const items: unknown[] = [];
  let total: number | undefined;
  for (let page = 1; ; page++) {
    const data = await client.call(op.path, { ...body, [p.page]: page, [p.pageSize]: pageSize }, { safe: op.safe });
    const list = getPath(data, p.items);
    const t = getPath(data, p.total);
    if (!Array.isArray(list)) throw new ResponseError(`${op.group} ${op.name}: page ${page} has no '${p.items}' list`);
    if (typeof t === 'number') total = t;
    items.push(...list);
    if (list.length < pageSize || (total !== undefined && items.length >= total)) break;
  }
  if (total !== undefined && items.length !== total) {
    throw new ResponseError(`${op.group} ${op.name}: fetched ${items.length} items but the service reported ${total}`, undefined, 'the listing changed while paging or a page was cut short; run again');
  }
  await renderResponse(ctx, { rows: p.items, columns: op.columns }, { [p.items]: items, [p.total]: items.length });
}
