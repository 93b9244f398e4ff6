/** The run step of every generated operation command: build and check the body, send it, render. */
import type { Context } from '../../context.js';
import type { FollowUp, Inferred, Operation } from '../../operations/types.js';
import { buildRequestBody } from '../../request/build.js';
import type { FollowUpStep } from '../../request/follow-up.js';
import type { OperationFlags, OperationOptions } from '../../request/flags.js';
import { checkOutput, checkShape, renderResponse } from '../../output/respond.js';
import { wallClock } from '../../core/host.js';
import { repositoryName } from '../../request/repository-names.js';
import { printDryRun } from '../../http/dry-run.js';
import { confirmDestructive } from '../../terminal/confirm.js';
import { checkEmptyScope } from '../../listing/empty-scope.js';
import { checkAnswer } from '../../answers/item-scope.js';
import { getPath } from '../../output/field-paths.js';
import { count } from '../../terminal/progress.js';
import { parseNumberFlag } from '../../request/number-flag.js';
import { kebab, loadGroup } from '../../operations/index.js';
import { numericScore } from '../../operations/levels.js';
import { carryInexact } from '../../http/exact-numbers.js';

const isEmptyList = (v: unknown): boolean => Array.isArray(v) && v.length === 0;
/** Commander's attribute of a flag: `--min-score <n>` -> `minScore`. */
const filterKey = (flags: string) => flags.split(' ')[0].slice(2).replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
import { CliError, UsageError } from '../../core/errors.js';
import { EXIT } from '../../core/exit-codes.js';
import { ApiError, ResponseError } from '../../http/api-errors.js';
import { rowCommand, sendRow } from '../../http/row-call.js';

/** The code of each follow-up step a row can name, loaded only when one of its flags is given. */
const FOLLOW_UPS: Record<FollowUp['step'], () => Promise<FollowUpStep>> = {
  'scan-wait': () => import('../../scans/wait.js').then((m) => m.scanWait),
};

/**
 * A step that works out a required field the user left out (a row's `infer`), before the call. It
 * sets the field in the body; `failed` may turn the call's error into a clearer one.
 */
interface InferStep {
  fill(ctx: Context, op: Operation, body: Record<string, unknown>): Promise<void>;
  failed?(ctx: Context, op: Operation, body: Record<string, unknown>, err: unknown): Promise<unknown>;
}

/** The code of each step a row's `infer` can name, loaded only when its field is missing. */
const INFERS: Record<Inferred['step'], () => Promise<InferStep>> = {
  'repository-vcs': () => import('../../repos/infer-vcs.js').then((m) => m.repositoryVcs),
};

export async function runOperation(ctx: Context, op: Operation, flags: OperationFlags, opts: OperationOptions, given?: string | string[]): Promise<void> {
  const ids = given === undefined ? [] : Array.isArray(given) ? given : [given];
  // Where this run's answers are used (answers/checks.ts): a read shows, --all promises every item, a change acts.
  ctx.doubts.use = !op.safe ? 'bulk' : opts.all && op.pagination ? 'all' : 'read';
  if (op.bulk && (ids.length > 1 || opts.idsFrom !== undefined || opts.where !== undefined || opts.failedTo !== undefined)) {
    await runBulkOperation(ctx, op, flags, opts, ids);
    return;
  }
  const positional = ids[0];
  const wanted = op.followUp && flags.followUp?.some((a) => opts[a] !== undefined);
  const followUp = wanted ? await FOLLOW_UPS[op.followUp!.step]() : undefined;
  const settings = followUp?.prepare(opts);
  // Filters the request cannot carry, checked before anything is sent; their code (with the gate's
  // levels and dates) is evaluated only when one is given.
  const localGiven = op.localFilters?.filters.some((f) => opts[filterKey(f.flags)] !== undefined);
  const local = localGiven ? await loadLocalFilters() : undefined;
  const filter = local?.parseLocalFilters(op.localFilters!, opts, wallClock(ctx));
  // --limit (a list whose request has none): checked before anything is sent, applied to the answer.
  const limit = op.localLimit && opts.limit !== undefined ? parseNumberFlag(opts.limit, { flag: '--limit', whole: true, min: 1, max: 100_000 }) : undefined;
  const body = await buildRequestBody(ctx, op, flags, opts, positional);
  const missing = op.infer !== undefined && (body[op.infer.field] === undefined || body[op.infer.field] === '');
  const infer = missing ? await INFERS[op.infer!.step]() : undefined;
  if (infer) await infer.fill(ctx, op, body);
  await checkOutput(ctx, op, opts.all === true && op.pagination !== undefined);
  if (op.destructive) await confirmDestructive(ctx, op, body, opts.yes === true);
  if (ctx.globals.dryRun) {
    printDryRun(ctx, op.path, body);
    if (filter) ctx.note(`note: ${filter.text} is not sent: svc filters the answer itself`);
    return;
  }
  if (opts.all && op.pagination) {
    // The --all engine (pager, heap settings) is evaluated only when --all is given.
    const { runAllPages } = await import('../../listing/paginate.js');
    await runAllPages(ctx, op, body, opts, filter);
    return;
  }
  const client = await ctx.client();
  let data: unknown;
  try {
    // The command as typed (`stats security-posture`), not the API's spelling (`securityPosture`).
    data = await ctx.spin(rowCommand(op), () => sendRow(client, op, body));
  } catch (err) {
    const failed = infer?.failed ? await infer.failed(ctx, op, body, err) : err;
    throw op.safe ? failed : unsureChange(failed);
  }
  // The answer against itself and the request (answers/: what is found is shown with a warning); an
  // empty one scoped to repositories is checked to name only repositories that exist (listing/empty-scope.ts).
  checkAnswer(op.path, op.pagination?.items, data, body, `${op.group} ${op.name}`, ctx.doubts.report, { id: op.pagination?.id ?? (op.idAliases ? 'id' : undefined), idAliases: op.pagination?.idAliases ?? op.idAliases });
  if (op.pagination && isEmptyList(getPath(data, op.pagination.items))) await checkEmptyScope(client, op.path, body, `${op.group} ${op.name}`);
  // A page without its total: how many match is not known (a total that is not a number is warned of above).
  const totalKey = op.pagination?.total;
  if (totalKey !== undefined && data !== null && typeof data === 'object' && !Array.isArray(data) && getPath(data, totalKey) == null) {
    ctx.doubts.report('no-total', `${op.group} ${op.name}`, `the answer has no ${totalKey}: how many match is not known`);
  }
  if (filter && local && op.pagination) {
    checkShape(ctx, op, data);
    const page = local.filterPage(data, op.pagination.items, filter);
    const n = typeof body[op.pagination.page] === 'number' ? body[op.pagination.page] as number : 1;
    const left = pagesLeft(op, data, body, n);
    // The copy keeps the answer's numbers a double does not hold (http/exact-numbers.ts).
    carryInexact(data, page.data);
    data = page.data;
    // One short note (the flag's help says why svc filters, and that the totals are left out).
    ctx.note(`note: ${filter.text} (filtered by svc): ${page.after} of page ${n}'s ${page.before} issues${left === undefined ? '' : left > 0 ? `; ${count(left)} more page${left === 1 ? '' : 's'} (--all reads them)` : '; no more pages'}`);
  }
  if (limit !== undefined) data = limitRows(ctx, op, data, limit);
  if (followUp) await followUp.run(ctx, op, body, data, settings);
  else {
    if (op.showsOrganization && ctx.io.stdoutIsTTY && ctx.format() === 'table') ctx.note(organizationLine(ctx, body));
    await renderResponse(ctx, op, data, await withRepositoryName(ctx, op, body));
  }
  if (op.explain && ctx.format() === 'table') for (const line of await op.explain(body)) ctx.note(line);
}

const UNSURE = 'the change may or may not have been made: check before repeating it';

/**
 * A change sent whose answer svc cannot read (exit 7: not JSON, a key twice, nested too deeply...):
 * the service may have made it, so the error says so, and does not tell the user to "try again"
 * (docs/reliability.md: a change is never repeated blindly). Errors that say it already pass as they are.
 */
function unsureChange(err: unknown): unknown {
  if (!(err instanceof CliError) || err.exitCode !== EXIT.BAD_RESPONSE) return err;
  if (/may or may not have been made|taken effect|whether it was done/.test(`${err.message} ${err.hint ?? ''}`)) return err;
  const rest = (err.hint ?? '').replace(/;?\s*try again with --verbose/, '; --verbose on a read shows what the service sends').replace(/^;\s*/, '');
  return new ResponseError(err.message, err instanceof ApiError ? err.status : undefined, rest ? `${UNSURE} (${rest})` : UNSURE);
}

/**
 * The first `limit` rows of a list answer, highest `orderBy` first (a row without it last); said
 * when the service sent fewer than asked: the request has no field to ask for more.
 */
function limitRows(ctx: Context, op: Operation, data: unknown, limit: number): unknown {
  const rows = op.rows ? getPath(data, op.rows) : data;
  if (!Array.isArray(rows)) return data;
  const key = op.localLimit!.orderBy;
  // The number the table shows and ranks by level: a score the service sent as text ("72", warned of
  // as a shape doubt) ranks as 72, as its LEVEL column reads it, not last.
  const rank = (r: unknown) => numericScore(getPath(r, key)) ?? -Infinity;
  const kept = [...rows].sort((a, b) => rank(b) - rank(a)).slice(0, limit);
  if (rows.length < limit) ctx.note(`note: the service sent ${rows.length}, fewer than --limit ${limit}: the request has no field to ask for more`);
  const cut = op.rows && data !== null && typeof data === 'object' && !Array.isArray(data) ? { ...(data as Record<string, unknown>), [op.rows]: kept } : kept;
  carryInexact(data, cut);
  return cut;
}

/** Pages after page `n`, from the answer's total and the page size; undefined when it has no total. */
function pagesLeft(op: Operation, data: unknown, body: Record<string, unknown>, n: number): number | undefined {
  const p = op.pagination!;
  const total = getPath(data, p.total);
  const size = getPath(data, 'pageSize') ?? body[p.pageSize];
  if (typeof total !== 'number' || typeof size !== 'number' || size < 1) return undefined;
  return Math.max(0, Math.ceil(total / size) - n);
}

async function loadLocalFilters() {
  const { parseLocalFilters, filterPage } = await import('../../listing/local-filter.js');
  return { parseLocalFilters, filterPage };
}

/** Several ids (a row with `bulk`): the ids gathered, one body each, sent by the bulk engine. */
async function runBulkOperation(ctx: Context, op: Operation, flags: OperationFlags, opts: OperationOptions, positionals: string[]): Promise<void> {
  const otherStdin = Object.entries(opts).some(([k, v]) => k !== 'idsFrom' && typeof v === 'string' && (/(^|=)@-$/.test(v) || (v === '-' && (k === 'input' || k.endsWith('From')))))
    || (opts.field ?? []).some((v) => /(^|=)@-$/.test(v));
  if (opts.idsFrom === '-' && otherStdin) {
    throw new UsageError('--ids-from - reads stdin, which another flag reads too', 'give the ids or the other value in a file');
  }
  // The bulk engine (and --where's search) is evaluated only when several ids are given.
  const { collectIds } = await import('../../listing/bulk-ids.js');
  const { runBulk } = await import('../../listing/bulk.js');
  const { parseConcurrency } = await import('../../listing/all-pages.js');
  const concurrency = parseConcurrency(opts.concurrency);
  await checkOutput(ctx);
  // --failed-to: a file that can be written and is not the config file, before anything is sent.
  const failedTo = opts.failedTo as string | undefined;
  const failedToPath = failedTo === undefined ? undefined : await (await import('../../listing/failed-to.js')).checkFailedTo(ctx, failedTo);
  // The id's own flag (--issue-id) beside the bulk ways of giving ids: one way only (it was reported
  // as "issueId is given twice: 'id' and 'X'", the placeholder of the shared body in it).
  const own = op.positional === undefined ? undefined : opts[op.positional];
  if (own !== undefined) {
    throw new UsageError(`--${kebab(op.positional!)} names one issue; with several ids, --ids-from, --where or --failed-to give every id that way`, `drop --${kebab(op.positional!)}, or give its id as an argument beside the others`);
  }
  // The body every id shares, checked before any id is looked for (its id is set per call).
  const base = await buildRequestBody(ctx, op, flags, opts, positionals[0] ?? 'id');
  const org = typeof base.organizationId === 'string' ? base.organizationId : undefined;
  // What --where found, kept for --dry-run's table on a terminal.
  const found = new Map<string, Record<string, unknown>>();
  const { ids, skipped } = await collectIds(ctx, op, {
    positionals, idsFrom: opts.idsFrom as string | undefined, where: opts.where as string[] | undefined, yes: opts.yes, concurrency,
    onFound: (list) => { for (const f of list) found.set(f.id, f); },
  }, org);
  if (ids.length === 0 && skipped.length === 0) return;
  const search = found.size ? (await loadGroup('issues')).find((o) => o.name === 'search') : undefined;
  await runBulk(ctx, { op, ids, skipped, bodyFor: (id) => ({ ...base, [op.positional!]: id }), concurrency, failedTo, failedToPath, found, search });
}

/**
 * The request with the repository's name beside its id, for a table whose heading names it
 * (`PR scanning: on for payments-api`); only the table reads it, so only a table looks it up.
 */
async function withRepositoryName(ctx: Context, op: Operation, body: Record<string, unknown>): Promise<Record<string, unknown>> {
  if (ctx.format() !== 'table' || !op.detail?.heading?.includes('{repositoryName') || typeof body.repositoryId !== 'string') return body;
  const name = await repositoryName(ctx, body.repositoryId, typeof body.organizationId === 'string' ? body.organizationId : undefined);
  return name === undefined ? body : { ...body, repositoryName: name };
}

/** `Organization: org_1 (from profile)`, or the token's default when none is set. */
function organizationLine(ctx: Context, body: Record<string, unknown>): string {
  const org = ctx.organization();
  const sent = typeof body.organizationId === 'string' ? body.organizationId : undefined;
  if (sent) return `Organization: ${sent} (from ${sent === org.id ? org.from : '--organization-id'})`;
  return "Organization: the token's default (none set; see svc auth status)";
}

