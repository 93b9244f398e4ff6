/**
 * Repositories by name: wherever a request takes a repository id (`repositoryId`, `repositoryIds`:
 * positionals, `--repository-id(s)`, `-R`, the gate's scope), the value may also be the repository's
 * name, `owner/name` or its URL. The organization's repositories are listed once per run
 * (`repositories/list`, kept for the run) and each value is looked up in them: an id as it is, then
 * a name, `owner/name` (the last two parts of its URL's path), a URL (src/ci/repo-url.ts, the one matcher).
 *
 * - Several matches: exit 2 listing them with their ids.
 * - None: exit 4 with the closest names; an id found in another organization the token sees is named
 *   with that organization.
 * - `--dry-run` sends nothing, so nothing is looked up: the values are shown as given.
 *
 * Which values are looked up: URLs and `owner/name` always; a plain value only when it cannot be an
 * id of the service, i.e. it holds neither a digit nor `_` (ids seen hold both: `repo_3f9a`, UUIDs).
 * A plain value with a digit or `_` is sent as given (an unknown id is then the service's 404, or the
 * gate's scope check); a name like `api-v2` is written as `owner/api-v2` or its URL instead.
 */
import type { Context } from '../context.js';
import { CliError, UsageError } from '../core/errors.js';
import { EXIT } from '../core/exit-codes.js';
import { matchByUrl, webUrl } from '../ci/repo-url.js';
import { editDistance } from '../core/edit-distance.js';
import { escapeControls } from '../core/sanitize.js';
import { callRow } from '../http/row-call.js';
import { rowOf } from '../operations/index.js';

/** `name (id)` of a repository or organization the service named, escaped for a message. */
const repoText = (r: { name: string; id: string }): string => `${escapeControls(String(r.name))} (${escapeControls(String(r.id))})`;

interface Repo {
  id: string;
  name: string;
  urls: string[];
  projectId?: string;
}

/** The request fields that hold repository ids. */
const FIELDS = ['repositoryId', 'repositoryIds'] as const;

const lists = new WeakMap<Context, Map<string, Promise<Repo[]>>>();

/** The repositories of an organization (`''`: the token's default), listed once per run. */
function repositories(ctx: Context, organizationId: string | undefined): Promise<Repo[]> {
  let byOrg = lists.get(ctx);
  if (!byOrg) lists.set(ctx, (byOrg = new Map()));
  const key = organizationId ?? '';
  let list = byOrg.get(key);
  if (!list) {
    list = listRepos(ctx, organizationId);
    byOrg.set(key, list);
  }
  return list;
}

async function listRepos(ctx: Context, organizationId: string | undefined): Promise<Repo[]> {
  const client = await ctx.client();
  const answer = await callRow(client, await rowOf('repos', 'list'), { ...(organizationId ? { organizationId } : {}), getCounts: false }, { what: 'repository names: repos list' }) as unknown[];
  return answer.flatMap((r: unknown) => {
    if (r === null || typeof r !== 'object') return [];
    const rec = r as Record<string, unknown>;
    // A numbered id (the spec says a string) as its text; one a double does not hold exactly cannot name it.
    const id = typeof rec.id === 'string' ? rec.id : Number.isSafeInteger(rec.id) ? String(rec.id) : undefined;
    if (id === undefined) return [];
    const urls = [rec.url, rec.repositoryUrl].filter((u): u is string => typeof u === 'string' && u !== '');
    return [{ id, name: typeof rec.name === 'string' ? rec.name : id, urls, ...(typeof rec.projectId === 'string' ? { projectId: rec.projectId } : {}) }];
  });
}

/** `owner/name` of a repository: the last two parts of its URL's path. */
function ownerName(repo: Repo): string[] {
  return repo.urls.flatMap((u) => {
    const web = webUrl(u);
    const parts = web ? new URL(web).pathname.split('/').filter(Boolean) : [];
    return parts.length >= 2 ? [parts.slice(-2).join('/').toLowerCase()] : [];
  });
}

/** The repositories a value names. */
function matches(value: string, repos: Repo[]): Repo[] {
  const byId = repos.filter((r) => r.id === value);
  if (byId.length) return byId;
  if (/^[a-z][a-z0-9+.-]*:\/\/|^[^@/\s]+@[^:/\s]+:/i.test(value)) return matchByUrl(value, repos);
  const lower = value.toLowerCase();
  if (value.includes('/')) return repos.filter((r) => ownerName(r).includes(lower.replace(/\.git$/, '')));
  const exact = repos.filter((r) => r.name === value);
  return exact.length ? exact : repos.filter((r) => r.name.toLowerCase() === lower);
}

/** The `n` repositories whose name is closest to the value. */
function closest(value: string, repos: Repo[], n = 3): Repo[] {
  const v = value.toLowerCase().split('/').pop()!;
  return repos.map((r) => ({ r, d: editDistance(v, r.name.toLowerCase()) })).sort((a, b) => a.d - b.d).slice(0, n).map((x) => x.r);
}

/** Looks the value up in the other organizations the token sees; the one holding it, if any. */
async function otherOrganization(ctx: Context, value: string, organizationId: string | undefined): Promise<{ id: string; name: string } | undefined> {
  try {
    const client = await ctx.client();
    const orgs = await callRow(client, await rowOf('orgs', 'list'), {}) as unknown[];
    for (const o of orgs as Array<{ id?: unknown; name?: unknown }>) {
      if (typeof o.id !== 'string' || o.id === organizationId) continue;
      const repos = await repositories(ctx, o.id);
      if (matches(value, repos).length > 0) return { id: o.id, name: typeof o.name === 'string' ? o.name : o.id };
    }
  } catch (err) {
    if (err instanceof CliError && err.exitCode === EXIT.INTERRUPTED) throw err;
  }
  return undefined;
}

/** Whether a value is looked up (see the head of this file). */
function isLookedUp(value: string): boolean {
  return value.includes('/') || /^[^@/\s]+@[^:/\s]+:/.test(value) || !/[\d_]/.test(value);
}

/**
 * `orgFlag`: the flag that picks another organization here. `--org` loses to an organization the
 * command's own flag (`--organization-id`) put in the body, so the hint names that one then.
 */
async function resolveOne(ctx: Context, value: string, what: string, organizationId: string | undefined, orgFlag = '--org'): Promise<string> {
  if (!isLookedUp(value)) return value;
  const repos = await repositories(ctx, organizationId);
  const found = matches(value, repos);
  if (found.length === 1) return found[0].id;
  if (found.length > 1) {
    throw new UsageError(`${what} '${value}' names ${found.length} repositories: ${found.map(repoText).join(', ')}`, 'give the one you mean by id, owner/name or URL');
  }
  const elsewhere = await otherOrganization(ctx, value, organizationId);
  if (elsewhere) {
    throw new CliError(`${what} '${value}' is a repository of organization ${repoText(elsewhere)}, not of the organization in use${organizationId ? ` (${organizationId})` : ''}`, EXIT.NOT_FOUND, orgFlag === '--org' ? `add --org ${escapeControls(elsewhere.id)}` : `use ${orgFlag} ${escapeControls(elsewhere.id)}`);
  }
  const near = closest(value, repos);
  throw new CliError(
    `${what} '${value}' not found: no repository of the organization${organizationId ? ` ${organizationId}` : ''} has this id, name, owner/name or URL`,
    EXIT.NOT_FOUND,
    near.length ? `closest: ${near.map(repoText).join(', ')}; \`svc repos list\` shows them all` : 'the organization has no repositories: `svc repos list`',
  );
}

/**
 * Replaces the repository names, `owner/name`s and URLs of a request body by their ids (in place).
 * `flagOf` names the flag of a field for messages; `read`: look up under --dry-run too.
 */
export async function resolveRepositoryFields(ctx: Context, body: Record<string, unknown>, flagOf: (field: string) => string, o: { read?: boolean } = {}): Promise<void> {
  // --dry-run sends nothing, unless the caller reads anyway (`--where` searches before it prints).
  if (ctx.globals.dryRun && !o.read) return;
  const org = typeof body.organizationId === 'string' ? body.organizationId : undefined;
  const orgFlag = org !== undefined && org !== ctx.organization().id ? flagOf('organizationId') : '--org';
  for (const field of FIELDS) {
    const value = body[field];
    if (typeof value === 'string' && value !== '') body[field] = await resolveOne(ctx, value, flagOf(field), org, orgFlag);
    else if (Array.isArray(value) && value.every((v) => typeof v === 'string')) {
      const ids: string[] = [];
      for (const v of value as string[]) ids.push(await resolveOne(ctx, v, flagOf(field), org, orgFlag));
      body[field] = ids;
    }
  }
}


/**
 * The name of a repository, for what a person reads (`PR scanning: on for payments-api`): from the
 * list this run already read to resolve a name the user gave, else from one `repositories/list`
 * call. Undefined when it cannot be had (the id is shown instead): a failed lookup never fails the
 * command, whose change is done.
 */
export async function repositoryName(ctx: Context, id: string, organizationId: string | undefined): Promise<string | undefined> {
  try {
    return (await repositories(ctx, organizationId)).find((r) => r.id === id)?.name;
  } catch (err) {
    if (err instanceof CliError && (err.exitCode === EXIT.INTERRUPTED || err.exitCode === EXIT.TERMINATED)) throw err;
    return undefined;
  }
}

/**
 * The ids of the repositories of an organization (`undefined`: the token's default), or of one
 * project of it: `repositories list`, read once per run. An issue carries no organizationId or
 * projectId (the spec's Issue record), so its repositoryId is what shows whether a search honoured
 * those filters.
 */
export async function repositoryIdsOf(ctx: Context, organizationId: string | undefined, projectId?: string): Promise<Set<string>> {
  const repos = await repositories(ctx, organizationId);
  return new Set(repos.filter((r) => projectId === undefined || r.projectId === projectId).map((r) => r.id));
}
