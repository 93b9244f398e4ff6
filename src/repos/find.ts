/**
 * A linked repository from its URL, whatever its provider: `repositories/resolve-by-url` when the
 * provider is known (given, the CI's own, or a public host), else (or when that finds nothing) the
 * URL looked up among the organization's repositories (`repositories/list`: `url`/`repositoryUrl`).
 * Unknown: exit 4 naming the URL and the closest linked repositories. Reused by the gate's
 * --repository and `repos resolve-by-url` without --vcs.
 */
import type { ApiContext } from '../context.js';
import { CliError, UsageError } from '../core/errors.js';
import { EXIT } from '../core/exit-codes.js';
import type { Vcs } from '../ci/providers.js';
import { closestByUrl, matchByUrl, publicHostVcs, webUrl } from '../ci/repo-url.js';
import type { CiInfo } from '../ci/detect.js';
import { callRow } from '../http/row-call.js';
import { rowOf } from '../operations/index.js';

interface LinkedRepository {
  id: string;
  name: string;
  /** `url` and `repositoryUrl` of the record (and its host C / generic git URL). */
  urls: string[];
  vcs?: Vcs;
}

/** The provider of a Repository record, from the object that links it. */
function recordVcs(r: Record<string, unknown>): Vcs | undefined {
  if (r.hostARepository) return 'hosta';
  if (r.hostBRepository) return 'hostb';
  if (r.hostC) return 'hostc';
  if (r.genericGit) return 'generic';
  return undefined;
}

function nested(v: unknown): string | undefined {
  const url = v !== null && typeof v === 'object' ? (v as { repositoryUrl?: unknown }).repositoryUrl : undefined;
  return typeof url === 'string' ? url : undefined;
}

/** Every URL a Repository record gives: `url`, `repositoryUrl`, and its host C / generic git URL. */
export function recordUrls(rec: Record<string, unknown>): string[] {
  return [rec.url, rec.repositoryUrl, nested(rec.hostC), nested(rec.genericGit)].filter((u): u is string => typeof u === 'string' && u.trim() !== '');
}

/** The organization's linked repositories, with every URL each is known by. */
async function listRepositories(ctx: ApiContext, organizationId: string | undefined): Promise<LinkedRepository[]> {
  const client = await ctx.client();
  const body: Record<string, unknown> = { getCounts: false };
  if (organizationId !== undefined) body.organizationId = organizationId;
  const answer = await callRow(client, await rowOf('repos', 'list'), body, { what: 'repos list' }) as unknown[];
  return answer.flatMap((r: unknown) => {
    if (r === null || typeof r !== 'object') return [];
    const rec = r as Record<string, unknown>;
    // A numbered id (the spec says a string) as its text; one a double does not hold exactly cannot name it.
    const id = typeof rec.id === 'string' ? rec.id : Number.isSafeInteger(rec.id) ? String(rec.id) : undefined;
    if (id === undefined) return [];
    const urls = recordUrls(rec);
    const repo: LinkedRepository = { id, name: typeof rec.name === 'string' ? rec.name : id, urls };
    const vcs = recordVcs(rec);
    if (vcs) repo.vcs = vcs;
    return [repo];
  });
}

interface ResolveUrlOptions {
  /** The provider, when the user or the CI says it. */
  vcs?: Vcs;
  organizationId?: string;
  /** Who asks, for messages: "--repository", "repos resolve-by-url". */
  label: string;
}

interface ResolvedRepository {
  repositoryId: string;
  url: string;
  vcs?: Vcs;
  /** How it was found. */
  via: 'resolve-by-url' | 'repositories/list';
}

/** The repository a URL names, or exit 2 (no URL) / 4 (no such linked repository). */
export async function resolveRepositoryUrl(ctx: ApiContext, given: string, o: ResolveUrlOptions): Promise<ResolvedRepository> {
  const url = checkedUrl(given, o.label);
  const vcs = o.vcs ?? publicHostVcs(url);
  if (vcs !== undefined) {
    const id = await byService(ctx, url, vcs, o);
    if (id !== undefined) return { repositoryId: id, url, vcs, via: 'resolve-by-url' };
  }
  const repos = await listRepositories(ctx, o.organizationId);
  const found = onlyMatch(url, repos, o.label);
  if (found) return { repositoryId: found.id, url, ...(found.vcs ? { vcs: found.vcs } : {}), via: 'repositories/list' };
  throw notLinked(url, repos, o.label, vcs);
}

function checkedUrl(given: string, label: string): string {
  const url = webUrl(given);
  if (url === undefined) throw new UsageError(`${label} ${given}: not a repository URL`, 'give it as https://host/owner/name (or git@host:owner/name.git)');
  return url;
}

/** The one linked repository with this URL; undefined when none; exit 2 when several. */
function onlyMatch(url: string, repos: LinkedRepository[], label: string): LinkedRepository | undefined {
  const found = matchByUrl(url, repos);
  if (found.length > 1) {
    throw new CliError(`${label} ${url}: ${found.length} linked repositories have this URL (${found.map((r) => r.id).join(', ')})`, EXIT.USAGE, 'give the one you mean by id (--repository-ids)');
  }
  return found[0];
}

/** Exit 4 naming the URL and the 3 closest linked repositories. */
function notLinked(url: string, repos: LinkedRepository[], label: string, vcs: Vcs | undefined): CliError {
  const near = closestByUrl(url, repos, 3);
  const hint = near.length === 0
    ? 'the organization has no linked repositories: link it first (svc repos add-...)'
    : `closest linked: ${near.map((r) => `${(r.urls[0] !== undefined ? webUrl(r.urls[0]) : undefined) ?? r.name} (${r.id})`).join(', ')}; link it first (svc repos add-...) or give its id`;
  return new CliError(`${label} ${url}: no linked repository has this URL${vcs ? ` (${vcs})` : ''}`, EXIT.NOT_FOUND, hint);
}

/** The provider of a URL the CI did not give as its own: the CI's when the URL is on the CI's server. */
export function ciVcsFor(url: string, ci: CiInfo | undefined): Vcs | undefined {
  if (!ci?.vcs) return undefined;
  const host = (u: string | undefined) => (u === undefined ? undefined : webUrl(u)?.replace(/^https?:\/\//, '').split('/')[0]);
  const own = host(ci.serverUrl) ?? host(ci.repositoryUrl);
  return own !== undefined && own === host(url) ? ci.vcs : undefined;
}

interface InferredVcs {
  vcs: Vcs;
  /** How it was chosen, for a note: "<host> is hosta's public host". */
  how: string;
}

/**
 * The provider (`vcs`) of a repository URL, for `repos resolve-by-url` without --vcs: the public host's
 * (the providers table's public hosts), the CI's own when the URL is on its server, else the provider
 * of the linked repository with this URL (`repositories/list`; one with no provider object is a
 * standalone repository: exit 4 naming its id). `offline` (--dry-run): undefined instead of listing. Unknown: exit 4
 * naming the URL and the closest linked repositories.
 */
export async function inferVcs(ctx: ApiContext, given: string, o: { organizationId?: string; ci?: CiInfo; label: string; offline?: boolean }): Promise<InferredVcs | undefined> {
  const url = checkedUrl(given, o.label);
  const host = new URL(url).host;
  const pub = publicHostVcs(url);
  if (pub) return { vcs: pub, how: `${host} is ${pub}'s public host` };
  const fromCi = ciVcsFor(url, o.ci);
  if (fromCi) return { vcs: fromCi, how: `${host} is the server of ${o.ci!.name}` };
  if (o.offline) return undefined;
  const repos = await listRepositories(ctx, o.organizationId);
  const found = onlyMatch(url, repos, o.label);
  if (found?.vcs) return { vcs: found.vcs, how: `the linked repository ${found.id} has this URL` };
  if (found) {
    // No provider object: a standalone repository, which resolve-by-url (host A/B/C or generic git) does not know.
    throw new CliError(`${o.label} ${url}: ${found.id} has this URL but is a standalone repository (no git provider), which resolve-by-url does not look up`, EXIT.NOT_FOUND, `use its id: ${found.id}`);
  }
  throw notLinked(url, repos, o.label, undefined);
}

/** After a 404 for a URL whose provider svc chose: exit 4 naming the URL and the closest linked repositories. */
export async function notLinkedError(ctx: ApiContext, given: string, o: { organizationId?: string; label: string; vcs: Vcs }): Promise<CliError> {
  const url = checkedUrl(given, o.label);
  return notLinked(url, await listRepositories(ctx, o.organizationId), o.label, o.vcs);
}
/** resolve-by-url; undefined when the service knows no repository of that provider at the URL. */
async function byService(ctx: ApiContext, url: string, vcs: Vcs, o: ResolveUrlOptions): Promise<string | undefined> {
  const client = await ctx.client();
  const body: Record<string, unknown> = { repositoryUrl: url, vcs };
  if (o.organizationId !== undefined) body.organizationId = o.organizationId;
  let answer: unknown;
  try {
    answer = await callRow(client, await rowOf('repos', 'resolve-by-url'), body, { what: `${o.label} ${url}: repos resolve-by-url` });
  } catch (err) {
    if (err instanceof CliError && err.exitCode === EXIT.NOT_FOUND) return undefined;
    throw err;
  }
  const id = answer !== null && typeof answer === 'object' ? (answer as { repositoryId?: unknown }).repositoryId : undefined;
  if (typeof id !== 'string' || id.trim() === '') {
    throw new CliError(`${o.label} ${url}: the service answered without a repository id`, EXIT.BAD_RESPONSE, 'give the repository id with --repository-ids');
  }
  return id;
}
