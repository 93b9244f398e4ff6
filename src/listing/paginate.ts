/**
 * `--all`: every page of a listing, streamed to stdout in page order and checked against the total
 * the service reports (see all-pages.ts for the checks, stream-out.ts for the formats).
 *
 * Order: unless the user names a sort, `--all` asks for the row's stable order (createdAt ascending):
 * items do not move between pages while they are read, and new ones land on the last page, where the
 * total check notices them. The service's default (score, descending) has ties whose order may differ
 * from one request to the next, which would skip some items and repeat others.
 */
import { layoutWidth } from '../core/host.js';
import type { Context } from '../context.js';
import { UsageError } from '../core/errors.js';
import { kebab } from '../operations/index.js';
import type { Operation } from '../operations/types.js';
import { checkEmptyScope } from './empty-scope.js';
import { Pager, allowListeners, parseConcurrency } from './all-pages.js';
import { checkShape, columnsFor, jqPerItem, rowsForPeople } from '../output/respond.js';
import { parseColumns } from '../output/columns.js';
import { itemWriter, type ItemWriter } from './stream-out.js';
import { decodePage, pageSource, releasePage } from './page-decode.js';
import { itemScopeFields } from '../answers/item-scope.js';
import { BufferPool } from '../http/buffer-pool.js';
import { favourSmallHeap } from './heap.js';
import { count } from '../terminal/progress.js';
import type { OperationOptions } from '../request/flags.js';
import type { ItemFilter } from './local-filter.js';
import { sendRow } from '../http/row-call.js';

/** The body `--all` sends: the row's stable order unless the user chose a sort. */
function withStableOrder(op: Operation, body: Record<string, unknown>): Record<string, unknown> {
  const order = op.pagination?.stableOrder;
  if (!order || Object.keys(order).some((k) => body[k] !== undefined)) return body;
  return { ...body, ...order };
}

function pageSizeFor(op: Operation, body: Record<string, unknown>): number {
  const p = op.pagination!;
  const given = body[p.pageSize];
  return typeof given === 'number' && Number.isInteger(given) && given > 0 ? given : p.maxPageSize;
}

/**
 * `filter`: the row's local filters given (local-filter.ts): every page is still read and checked
 * against the service's total; only the items kept are written, and a note says how many.
 */
export async function runAllPages(ctx: Context, op: Operation, body: Record<string, unknown>, opts: OperationOptions, filter?: ItemFilter): Promise<void> {
  // Flags that page otherwise: --all reads every page itself (a --return-all answer holds every item
  // on each page, so pages overlapped: exit 7 blamed the service), from page 1 (--page was ignored).
  const p = op.pagination!;
  if (body.returnAll === true) throw new UsageError('--all and --return-all both ask for every item: --all reads page after page, --return-all asks for one answer with all', 'give one of them');
  if (body[p.page] !== undefined && body[p.page] !== 1) throw new UsageError(`--all reads every page from the first: --${kebab(p.page)} ${String(body[p.page])} would be ignored`, `drop --${kebab(p.page)}, or drop --all to read that page`);
  const concurrency = parseConcurrency(opts.concurrency);
  const what = `${op.group} ${op.name} --all`;
  const client = await ctx.client();
  allowListeners(ctx.signal, concurrency);
  favourSmallHeap(ctx.env.NODE_OPTIONS);
  const buffers = new BufferPool(concurrency + 2);
  const format = ctx.format();
  // NDJSON and JSON straight from the pages' bytes (in pipes and files: a terminal gets escaped JSON).
  const copy = (format === 'ndjson' || format === 'json') && ctx.globals.columns === undefined && ctx.globals.jq === undefined && !ctx.io.stdoutIsTTY && !filter;
  // Their pages after the first decoded slim: of each item only what the pager's checks read (its id
  // and the id's aliases, the fields of the scope check, a page's first item whole: page-decode.ts).
  const slimKeeps = copy ? { id: op.pagination!.id, keep: [...(op.pagination!.idAliases ?? []), ...itemScopeFields(op.path, body)] } : undefined;
  const pager = new Pager({
    what,
    pagination: op.pagination!,
    body: withStableOrder(op, body),
    pageSize: pageSizeFor(op, body),
    concurrency,
    path: op.path,
    // The checks report to the run's doubts (its use: --all): what --all cannot promise is refused, the rest warned.
    report: ctx.doubts.report,
    call: (b) => sendRow(client, op, b, { raw: buffers }),
    // Copied pages after the first are decoded slim (page 1 is checked whole: checkShape). Every page
    // records the numbers a double does not hold: items written one by one keep them, and so do
    // copied items sent with white space (those are serialized: stream-out.ts joinItems).
    decode: (answer, page) => decodePage(answer, op.pagination!.items, page > 1 ? slimKeeps : undefined, true),
  });
  // Made with page 1: --columns may name any field the answer has, checked on it (exit 2 when none has it).
  const writerFor = (first?: unknown) => itemWriter({
    format,
    stdout: ctx.io.stdout,
    columns: columnsFor(ctx, op, first),
    pretty: ctx.io.stdoutIsTTY,
    project: ctx.globals.columns !== undefined,
    names: ctx.globals.columns !== undefined ? parseColumns(ctx.globals.columns) : undefined,
    jq: ctx.globals.jq,
    jqMode: jqPerItem(op.pagination!),
    copyBytes: copy,
    render: { pretty: ctx.io.stdoutIsTTY, color: ctx.color, width: layoutWidth(ctx) },
    sink: { out: ctx.out, note: ctx.note, warn: ctx.warn },
    signal: ctx.signal,
    // Rows and the spinner share the terminal: the spinner is taken down while rows are written.
    around: ctx.io.stdoutIsTTY ? (fn) => progress.around(fn) : undefined,
  });
  // A table or CSV shows an item named by an alias of its id (item-id-field, said by the pager) in the
  // id's column, and a column's stand-in (cellFallbacks), as a single page does (respond.ts
  // shownRows); JSON and NDJSON write items as they came.
  const people = (format === 'table' || format === 'csv') && (op.idAliases || op.cellFallbacks);
  const shown = (items: unknown[]) => (people ? rowsForPeople(items, op) : items);
  let writer: ItemWriter | undefined;
  let matched = 0;
  const progress = await ctx.progress(`${what}: fetching page 1`);
  try {
    for await (const page of pager.pages()) {
      if (page.page === 1) {
        checkShape(ctx, op, page.data);
        writer = writerFor(page.data);
      }
      writer ??= writerFor();
      // The count first: the spinner stays up, with it, while the page's rows are written.
      progress.update(`${what}: fetched ${count(pager.fetched)}${pager.total !== undefined ? ` of ${count(pager.total)}` : ''}`);
      if (filter) {
        const kept = page.items.filter((i) => filter.keep(i));
        matched += kept.length;
        await writer.page(shown(kept));
      } else {
        await writer.page(shown(page.items), pageSource(page.data));
      }
      // Written (NDJSON's copy included): the page's buffer serves a later page.
      releasePage(page.data);
    }
  } finally {
    progress.stop();
  }
  if (pager.fetched === 0) await checkEmptyScope(client, op.path, body, what);
  await (writer ?? writerFor()).end();
  if (filter) ctx.note(`note: ${filter.text} (filtered by svc): ${count(matched)} of the ${count(pager.fetched)} issues read`);
}
