/**
 * `--where FILTER=VALUE` (repeatable): the ids of a bulk action are the issues `svc issues search`
 * finds with those filters, every page read. FILTER is a flag of `svc issues search` without its
 * dashes (`types=open`, `repository-ids=repo_1,repo_2`, `severities-min=7`, `search-query=sql`,
 * `scan-id=...`, `languages=...`), plus `min-score`/`max-score` (0-100, checked on each issue here:
 * the search has no score filter). Lists take commas, as their flags do.
 */
import type { Context } from '../context.js';
import type { Operation } from '../operations/types.js';
import { UsageError } from '../core/errors.js';
import { flagSpecs, type FlagSpec } from '../request/flags.js';
import { flagValue, setPath, validateTyped } from '../request/body.js';
import { listParser, stringParser } from '../request/values.js';
import { parseNumberFlag } from '../request/number-flag.js';
import { Pager } from './all-pages.js';
import { checkEmptyScope } from './empty-scope.js';
import { repositoryIdsOf, resolveRepositoryFields } from '../request/repository-names.js';
import { kebab } from '../operations/index.js';
import { askYesNo } from '../terminal/confirm.js';
import { actionOf, type CheckId } from '../answers/checks.js';
import { quoted } from '../core/sanitize.js';
import { sendRow } from '../http/row-call.js';
import { issueTable } from './bulk-preview.js';

/** Search fields that are not filters: the listing sets them itself. */
const NOT_FILTERS = new Set(['page', 'page-size', 'sort-by', 'sort-order', 'return-all', 'get-counts', 'organization-id']);

/** An issue the search answered outside the filter that found it: never acted on. */
export interface Skipped {
  id: string;
  /** What it disagrees with ("status 'patched', not the one asked for ('open')"). */
  why: string;
  /** Found by the filter, but its id (a number a double does not hold) cannot name it exactly. */
  unnamed?: true;
}

/**
 * One issue as the previews show it: the fields of the search's default table (its row's
 * `columns`), so that the confirmation and --dry-run draw it as `svc issues search` does.
 */
export type Found = Record<string, unknown> & { id: string };

interface Where {
  body: Record<string, unknown>;
  minScore?: number;
  maxScore?: number;
  /** The filters as the user gave them, for messages. */
  text: string;
}

export async function parseWhere(search: Operation, filters: string[]): Promise<Where> {
  const specs = flagSpecs(search.request.shape).filter((s) => !NOT_FILTERS.has(s.flag));
  const body: Record<string, unknown> = {};
  const where: Where = { body, text: filters.join(' ') };
  const known = () => [...specs.map((s) => s.flag), 'min-score', 'max-score'].join(', ');
  // A filter given twice: a list filter takes both lists (as the search's repeated list flags do);
  // any other with two values is refused. Kept last (as it was), `severities-min=9 --where
  // severities-min=1` widened the action to every issue of severity 1 and up.
  const given = new Map<string, string>();
  const values = new Map<string, unknown>();
  for (const filter of filters) {
    const eq = filter.indexOf('=');
    if (eq <= 0) throw new UsageError(`--where expects FILTER=VALUE, got '${filter}'`, `for example --where types=open --where severities-min=7; filters: ${known()}`);
    const key = filter.slice(0, eq).trim().replace(/^--/, '');
    const raw = filter.slice(eq + 1);
    // An empty filter would filter nothing (`--where search-query=$Q` with Q unset: every issue).
    if (raw.trim() === '') throw new UsageError(`--where ${key}= has no value: an empty filter would not narrow the action`, 'give a value, or leave the filter out (an unset variable expands to nothing)');
    if (key === 'min-score' || key === 'max-score') {
      const n = parseNumberFlag(raw, { flag: `--where ${key}`, min: 0, max: 100 });
      const before = key === 'min-score' ? where.minScore : where.maxScore;
      if (before !== undefined && before !== n) throw twice(key, given.get(key)!, raw);
      given.set(key, raw);
      if (key === 'min-score') where.minScore = n; else where.maxScore = n;
      continue;
    }
    const spec = specs.find((s) => s.flag === key || s.path.join('.') === key);
    if (!spec) throw new UsageError(`--where: unknown filter '${key}'`, `the filters are the flags of 'svc issues search' that the service applies: ${known()}`);
    const value = await valueOf(spec, raw);
    const name = spec.path.join('.');
    const before = values.get(name);
    const merged = before === undefined ? value
      : Array.isArray(before) && Array.isArray(value) ? [...new Set([...before, ...value])]
        : JSON.stringify(before) === JSON.stringify(value) ? value : undefined;
    if (merged === undefined) throw twice(spec.flag, given.get(name)!, raw);
    setPath(body, spec.path, merged);
    values.set(name, merged);
    given.set(name, raw);
  }
  validateTyped(search.request, body, (path) => `--where ${specs.find((s) => s.path.join('.') === path.map(String).join('.'))?.flag ?? path.join('.')}`);
  return where;
}

function twice(flag: string, first: string, second: string): UsageError {
  return new UsageError(`--where ${flag} is given twice ('${first}' and '${second}'): it takes one value`, `give --where ${flag} once`);
}

async function valueOf(spec: FlagSpec, raw: string): Promise<unknown> {
  const name = `--where ${spec.flag}`;
  if (spec.kind === 'boolean') {
    if (raw !== 'true' && raw !== 'false') throw new UsageError(`${name} expects true or false, got '${raw}'`);
    return raw === 'true';
  }
  if (spec.kind === 'enum' && !spec.choices!.includes(raw)) throw new UsageError(`${name}: '${raw}' is not one of ${spec.choices!.join(', ')}`);
  if (spec.kind === 'array') {
    const items = listParser(name, spec.text)(raw, undefined);
    const bad = spec.itemKind === 'enum' ? items.find((v) => !spec.choices!.includes(v)) : undefined;
    if (bad !== undefined) throw new UsageError(`${name}: '${bad}' is not one of ${spec.choices!.join(', ')}`);
    return flagValue(spec, items, NO_FILES);
  }
  if (spec.kind === 'string') return stringParser(name, spec.text)(raw);
  return flagValue(spec, raw, NO_FILES);
}

const NO_FILES = {
  cwd: '.',
  readStdin: () => { throw new UsageError('--where values are given inline, not read from stdin'); },
};

/**
 * Every issue the filters find (all pages, oldest first), cut to the score range; and the issues the
 * service answered outside the filters (answers/item-scope.ts: `issues archive --where types=open`
 * against a service that ignores `types` gets a `patched` issue back), which are never acted on:
 * they are skipped and listed (exit 10 at the end, src/core/exit-codes.ts).
 */
export async function findWhere(ctx: Context, search: Operation, where: Where, organizationId: string | undefined, concurrency: number): Promise<{ found: Found[]; skipped: Skipped[] }> {
  const client = await ctx.client();
  const p = search.pagination!;
  await resolveRepositoryFields(ctx, where.body, (f) => `--where ${kebab(f)}`, { read: true });
  const body = { ...where.body, ...p.stableOrder, ...(organizationId ? { organizationId } : {}) };
  // Read when the first issue that names its repository comes (one that names none cannot disagree).
  let scope: Scope | undefined;
  const pager = new Pager({
    what: 'issues search (--where)',
    pagination: p,
    body,
    pageSize: p.maxPageSize,
    concurrency,
    path: search.path,
    // Each item's doubts (item-scope.ts), in the run's use (bulk): an item they `skip` is never acted on.
    report: ctx.doubts.report,
    // An issue named by `issueId` (item-id-field) is acted on by it.
    adoptId: true,
    call: (b) => sendRow(client, search, b),
  });
  const found: Found[] = [];
  const skipped: Skipped[] = [];
  const progress = await ctx.progress('finding the issues of --where');
  try {
    for await (const page of pager.pages()) {
      if (scope === undefined && page.items.some((it) => repositoryOf(it) !== undefined)) scope = await scopeOf(ctx, body);
      page.items.forEach((item, i) => {
        const doubted = page.doubted?.get(i);
        const it = (item ?? {}) as Record<string, unknown>;
        // A numbered id is acted on as its text (as --ids-from takes one, bulk-ids.ts); one a double does
        // not hold exactly (9007199254740993 parses to ...992) would name another issue: never acted on.
        const id = typeof it.id === 'string' ? it.id : typeof it.id === 'number' ? String(it.id) : undefined;
        if (doubted && doubted.some((c) => actionOf(c, 'bulk') === 'skip')) {
          skipped.push({ id: id ?? `(page ${page.page}, item ${i + 1}, no id)`, why: whyOf(it, body, doubted) });
          return;
        }
        if (id === undefined) return;
        // Of a repository outside the organization or project asked for: the service ignored that filter.
        const repo = repositoryOf(it);
        if (scope?.ids && repo !== undefined && !scope.ids.has(repo)) {
          skipped.push({ id, why: `of repository ${quoted(repo)}, not one of ${scope.where} (repositories list)` });
          return;
        }
        // The filter first: an issue outside min-score/max-score is none of --where's, whatever its id.
        const score = typeof it.score === 'number' ? it.score : undefined;
        if (where.minScore !== undefined && (score === undefined || score < where.minScore)) return;
        if (where.maxScore !== undefined && (score === undefined || score > where.maxScore)) return;
        if (typeof it.id === 'number' && !Number.isSafeInteger(it.id)) {
          skipped.push({ id, why: `its id is a number svc cannot send as the service wrote it (read as ${id}): acting on it could change another issue`, unnamed: true });
          return;
        }
        const kept: Found = { id };
        for (const path of search.columns) if (path in it && path !== 'id') kept[path] = it[path];
        found.push(kept);
      });
      progress.update(`finding the issues of --where: ${found.length} so far`);
    }
  } finally {
    progress.stop();
  }
  // Nothing listed for a repository the service does not know is exit 4 naming it, as for the
  // search itself: a mistyped id is not "nothing to do" (it was exit 0).
  if (pager.fetched === 0) await checkEmptyScope(client, search.path, body, 'issues search (--where)');
  return { found, skipped };
}

/**
 * The repositories of the organization or project --where names (--org, `project-id=`), or undefined
 * when it names neither: an issue carries no organizationId or projectId (the spec's Issue record), so
 * an item of another repository is the only sign that the service ignored those filters, and
 * `item-foreign` cannot see it. Such an item is skipped, never acted on; one that names no repository
 * cannot disagree (as answers/item-scope.ts checks the fields an item carries).
 */
async function scopeOf(ctx: Context, body: Record<string, unknown>): Promise<Scope> {
  const org = typeof body.organizationId === 'string' ? body.organizationId : undefined;
  const project = typeof body.projectId === 'string' ? body.projectId : undefined;
  if (org === undefined && project === undefined) return {};
  const where = project !== undefined ? `project ${quoted(project)}` : `organization ${quoted(org!)}`;
  return { ids: await repositoryIdsOf(ctx, org, project), where };
}

/** The repositories an issue of --where must be of (none: no organization or project named). */
interface Scope {
  ids?: ReadonlySet<string>;
  where?: string;
}

/** The repositoryId an item names, as text. */
function repositoryOf(item: unknown): string | undefined {
  const v = item !== null && typeof item === 'object' ? (item as Record<string, unknown>).repositoryId : undefined;
  return typeof v === 'string' || typeof v === 'number' ? String(v) : undefined;
}

/** What a skipped issue disagrees with, in a few words. */
function whyOf(item: Record<string, unknown>, body: Record<string, unknown>, doubted: readonly CheckId[]): string {
  const parts: string[] = [];
  for (const c of doubted) {
    if (c === 'item-status-other' || c === 'item-status-unknown') parts.push(`status ${quoted(String(item.status))}, not ${listed(body.types)}`);
    else if (c === 'item-foreign') parts.push('outside the repository, organization or project asked for');
    else if (c === 'item-other-scan') parts.push('names another scan than scan-id');
    else if (c === 'item-other-rule') parts.push('of another rule than rule-id');
    else if (c === 'item-other-filter') parts.push('outside severities, languages or vulnerability-classes');
    else if (c === 'item-filter-unshown') parts.push('does not show a field --where asked about (its status, repository, scan...)');
    else if (c === 'item-no-id') parts.push('no id');
    else if (c === 'item-not-record') parts.push('not an issue record');
  }
  return [...new Set(parts)].join('; ');
}

const listed = (v: unknown): string => (Array.isArray(v) ? v.map((x) => quoted(String(x))).join(' or ') : quoted(String(v)));

/**
 * Before a change to what --where found: on a terminal a preview and a question; elsewhere --yes
 * (exit 2 without it). --dry-run asks nothing (nothing is sent).
 */
export async function confirmWhere(ctx: Context, op: Operation, search: Operation, where: Where, found: Found[], yes: boolean, skipped: readonly Skipped[] = []): Promise<void> {
  if (yes || ctx.globals.dryRun) return;
  const what = `svc ${op.group} ${op.name} --where ${where.text}`;
  if (!ctx.io.stdinIsTTY || !ctx.io.stderrIsTTY) {
    throw new UsageError(`'${what}' would change ${found.length} issue${found.length === 1 ? '' : 's'}: it needs --yes when not run on a terminal`, 'add --yes to confirm, or --dry-run to see the requests');
  }
  // The highest-scoring first, as a search lists them; a screenful, then how many more.
  const shown = [...found].sort((a, b) => score(b) - score(a)).slice(0, PREVIEW_ROWS);
  ctx.note(`${found.length} issue${found.length === 1 ? '' : 's'} match --where ${where.text}${found.length > shown.length ? `; the ${shown.length} highest-scoring` : ''}:`);
  ctx.note((await issueTable(ctx, search, shown, 'stderr')).trimEnd());
  if (found.length > shown.length) ctx.note(`... and ${found.length - shown.length} more (--dry-run lists them all)`);
  if (skipped.length > 0) ctx.note(`${skipped.length} more the service answered outside --where ${where.text} will not be changed (skipped): ${skipped.slice(0, 5).map((x) => `${x.id} (${x.why})`).join(', ')}${skipped.length > 5 ? ', ...' : ''}`);
  const ok = await askYesNo(ctx, `${op.summary.replace(/ an issue$/, '')}: ${found.length} issue${found.length === 1 ? '' : 's'}. Continue?`);
  if (!ok) throw new UsageError('cancelled: nothing was changed');
}

/** Rows of the confirmation: with the question under them, it fits a 24-line terminal. */
const PREVIEW_ROWS = 10;

const score = (f: Found) => (typeof f.score === 'number' ? f.score : -1);
