/**
 * The gate's scope is verified before any verdict: every id it names must exist, and a scan it is
 * scoped to must have finished. A search for an id that does not exist returns no issue, which
 * would read as "0 open issues: passed"; so each id is looked up with an operation that lists it:
 *
 * | scope            | checked with                                   | when it fails                       |
 * |------------------|------------------------------------------------|-------------------------------------|
 * | organization     | `orgs list`: the id is listed                  | exit 4                              |
 * | --repository-ids | `repositories list` of the organization        | exit 4, naming every unknown id     |
 * | --project-id     | `repositories list`: a repository carries it   | exit 4 (a project without           |
 * |                  | (the spec has no project lookup; a project     |  repositories holds no issue)       |
 * |                  | is known only through its repositories)        |                                     |
 * | --scan-id        | `scans list --scan-id` (field notes)           | exit 4 unknown; 8 queued or running |
 * |                  |                                                | (or --wait); 1 failed, its message; |
 * |                  |                                                | 7 listed twice, a status word svc   |
 * |                  |                                                | does not know without flags, only   |
 * |                  |                                                | other scans; no PASS: a scan of     |
 * |                  |                                                | another organization                |
 * | --repository     | `repositories list`: the record of the id      | exit 7 when it gives only other     |
 * |  URL or auto     | resolve-by-url gave has that URL (or none)     | URLs (the answers contradict)       |
 * | --rule-id        | `issues search --rule-id` of any status: the   | exit 4: an unused rule cannot be    |
 * |                  | rule has found an issue (the spec has no rule  |  told from a typo                   |
 * |                  | lookup)                                        |                                     |
 * | organization or  | `repositories list` (once per gate): the scan's| no PASS (exit 7 unless a FAIL is    |
 * |  project (any    | and each counted issue's repositoryId is one of|  proven): a scan or an issue of a   |
 * |  named scope)    | the organization's (the project's) repositories|  repository outside the scope (not  |
 * |                  |                                                |  counted; no organizationId to      |
 * |                  |                                                |  compare)                           |
 *
 * An organization that is not named anywhere (no --organization-id, --org, SVC_ORGANIZATION_ID or
 * profile) is the token's default one, which the service picks: there is no id to check. The other
 * scope flags (--vulnerability-classes, --languages, --code-scan-types, --search-query) are filters,
 * not ids, and the spec lists no allowed values for them: they are not checked, and the summary says
 * how many open issues they left. A lookup that fails for another reason ends as any call does
 * (3, 6, 7...); a lookup whose answer cannot be read is exit 7: it never counts as "found". An
 * organization record without `id` is read by its `organizationId` (inference, a warning); one with no
 * id at all cannot show the organization exists: no PASS, and no exit 4 (answers/checks.ts).
 */
import type { Context } from '../../context.js';
import { CliError } from '../../core/errors.js';
import { EXIT } from '../../core/exit-codes.js';
import type { Client } from '../../http/client.js';
import { NotFoundError } from '../../http/api-errors.js';
import { itemScopeCheck } from '../../answers/item-scope.js';
import { refusal, type Doubts } from '../../answers/doubts.js';
import { escapeControls } from '../../core/sanitize.js';
import type { VerifiedScope } from '../../gate/verdict.js';
import { recordUrls } from '../../repos/find.js';
import { inScopeScan, type ScopeRepositories, repositoryNames, type RepositoryNames } from './scope-repositories.js';
import { mayNameSameRepository, webUrl } from '../../ci/repo-url.js';
import { WaitTimeoutError, findScan, reportScan, waitForScan } from '../../scans/wait.js';
import { callRow } from '../../http/row-call.js';
import { rowOf } from '../../operations/index.js';

/** An id of the scope that does not exist (exit 4). */
class ScopeNotFoundError extends CliError {
  constructor(message: string, hint: string) { super(message, EXIT.NOT_FOUND, hint); }
}

/** The scan the gate is scoped to has not finished (exit 8): no verdict yet. */
class ScanPendingError extends CliError {
  constructor(message: string, hint: string) { super(message, EXIT.PENDING, hint); }
}


interface WaitOptions {
  /** Set with --wait: wait for a queued or running scan instead of exit 8. */
  wait?: { pollMs: number; timeoutMs: number };
  /**
   * `--repository URL|auto`: the URL the service resolved to the (one) repository of the scope. Its
   * record in `repositories list` must not give it another URL (exit 7: the two answers contradict
   * each other, and the gate would judge another repository).
   */
  resolvedUrl?: string;
}

const FILTERS: Record<string, string> = {
  vulnerabilityClasses: '--vulnerability-classes', languages: '--languages', codeScanTypes: '--code-scan-types', searchQuery: '--search-query',
};

const q = (id: string) => `'${escapeControls(id)}'`;

/** The records of a list answer (callRow has checked it is a list, as the row documents: `top-level`). */
function listOf(data: unknown): Array<Record<string, unknown>> {
  return (data as unknown[]).filter((x): x is Record<string, unknown> => x !== null && typeof x === 'object');
}

function idOf(rec: Record<string, unknown>, field = 'id'): string | undefined {
  const v = rec[field];
  return typeof v === 'string' || typeof v === 'number' ? String(v) : undefined;
}

/**
 * An organization record's id: `id` (field notes), else (inference, `org-id-field`: the spec shows no
 * field of the record) `organizationId` or `orgId`, said once.
 */
function orgIdOf(rec: Record<string, unknown>, doubts: Doubts): string | undefined {
  const id = idOf(rec);
  if (id !== undefined) return id;
  for (const field of ['organizationId', 'orgId']) {
    const other = idOf(rec, field);
    if (other !== undefined) {
      doubts.add('org-id-field', 'gate: orgs list', `an organization record without 'id' gives '${field}' ${q(other)}: read as its id`);
      return other;
    }
  }
  return undefined;
}

async function verifyOrganization(client: Client, org: string, doubts: Doubts): Promise<boolean> {
  const orgs = listOf(await callRow(client, await rowOf('orgs', 'list'), {}, { what: 'gate: orgs list' }));
  const ids = orgs.map((o) => orgIdOf(o, doubts));
  if (ids.some((x) => x === undefined) && !ids.includes(org)) {
    // Not stated as missing (an organization without an id may be it): no PASS, and no exit 4.
    doubts.add('record-no-id', 'gate: orgs list', `it gives organizations without an id, so organization ${q(org)} cannot be verified`);
    return false;
  }
  if (!ids.includes(org)) {
    throw new ScopeNotFoundError(`gate: organization ${q(org)} not found (the token sees ${orgs.length} organization${orgs.length === 1 ? '' : 's'})`, 'check --organization-id, --org, SVC_ORGANIZATION_ID or the profile; `svc orgs list` shows them');
  }
  return true;
}

async function verifyRepositories(client: Client, org: string | undefined, repoIds: string[] | undefined, project: string | undefined, doubts: Doubts, resolvedUrl?: string): Promise<{ names?: RepositoryNames; repositories: ScopeRepositories }> {
  const body: Record<string, unknown> = { getCounts: false };
  if (org !== undefined) body.organizationId = org;
  const all = listOf(await callRow(client, await rowOf('repos', 'list'), body, { what: 'gate: repositories list' }));
  const where = org === undefined ? 'the token\'s organization' : `organization ${q(org)}`;
  const byId = new Map<string, Record<string, unknown>>();
  // A repository without an id cannot be shown to be (or not to be) one of the scope: no PASS.
  const repos = all.filter((r) => idOf(r) !== undefined);
  if (repos.length < all.length) doubts.add('record-no-id', 'gate: repositories list', `it gives ${all.length - repos.length} repositor${all.length - repos.length === 1 ? 'y' : 'ies'} without an id, so the scope cannot be verified`);
  for (const r of repos) byId.set(idOf(r)!, r);
  if (repoIds) {
    const missing = repoIds.filter((id) => !byId.has(id));
    // Not stated as missing while some repository has no id (it may be one asked for).
    if (missing.length > 0 && repos.length === all.length) {
      throw new ScopeNotFoundError(
        `gate: repositor${missing.length === 1 ? 'y' : 'ies'} ${missing.map(q).join(', ')} not found in ${where}`,
        '`svc repos list` shows the repository ids; a typo in --repository-ids would gate on nothing',
      );
    }
  }
  if (resolvedUrl !== undefined && repoIds?.length === 1 && byId.has(repoIds[0])) sameUrl(resolvedUrl, repoIds[0], byId.get(repoIds[0])!);
  if (project !== undefined) {
    const inProject = repos.filter((r) => r.projectId === project);
    if (inProject.length === 0) {
      throw new ScopeNotFoundError(`gate: project ${q(project)} not found: no repository of ${where} belongs to it`, '`svc repos list -o json` shows each repository\'s projectId');
    }
    const outside = (repoIds ?? []).filter((id) => byId.get(id)?.projectId !== project);
    if (outside.length > 0) {
      throw new ScopeNotFoundError(`gate: repositor${outside.length === 1 ? 'y' : 'ies'} ${outside.map(q).join(', ')} not in project ${q(project)}, so the scope holds nothing of ${outside.length === 1 ? 'it' : 'them'}`, 'drop --project-id or the repositories outside it');
    }
  }
  // The repositories an issue or the scan of the scope may be of (scope-repositories.ts).
  const repositories: ScopeRepositories = project !== undefined
    ? { ids: new Set(repos.filter((r) => r.projectId === project).map((r) => idOf(r)!)), where: `project ${q(project)}` }
    : { ids: new Set(byId.keys()), where };
  const names = repoIds ? repositoryNames(repos, repoIds) : undefined;
  return { ...(names ? { names } : {}), repositories };
}

/**
 * The repository resolve-by-url gave for `url` is listed with that URL (compared as repo-url.ts
 * compares URLs: host case, `.git`, trailing `/`, then the path's case; an SSH URL of the same host
 * whose path is the web path or ends it, mayNameSameRepository), or with none (nothing to compare).
 * Listed with only other URLs: exit 7.
 */
function sameUrl(url: string, id: string, record: Record<string, unknown>): void {
  const urls = recordUrls(record);
  // An SSH URL there is compared loosely: it carries no web port, nor always a relative root.
  if (urls.length === 0 || mayNameSameRepository(url, urls)) return;
  throw refusal('repository-url', 'gate',
    `the service's answers contradict each other: resolve-by-url gives ${q(id)} for ${url}, but repositories list gives ${q(id)} the URL ${[...new Set(urls.map((u) => webUrl(u) ?? u))].map(q).join(', ')}, so the gate would judge another repository`,
    'give the repository id with --repository-ids (`svc repos list` shows each one\'s URL); check the base URL and the service version',
  );
}

async function verifyRule(client: Client, org: string | undefined, rule: string): Promise<void> {
  const body: Record<string, unknown> = { ruleId: rule, page: 1, pageSize: 1 };
  if (org !== undefined) body.organizationId = org;
  const data = await callRow(client, await rowOf('issues', 'search'), body, { what: 'gate: --rule-id: issues search' }) as Record<string, unknown>;
  const counts = [data.totalCountAllCategories, data.totalCount].filter((n): n is number => typeof n === 'number');
  const listed = Array.isArray(data.issues) ? data.issues.length : undefined;
  if (counts.length === 0 && listed === undefined) {
    throw refusal('rule-no-count', 'gate: --rule-id', 'the issue search gave no count and no list, so the rule cannot be verified', 'check the base URL; try again with --verbose');
  }
  if (Math.max(...counts, listed ?? 0) === 0) {
    throw new ScopeNotFoundError(
      `gate: rule ${q(rule)} has found no issue of any status, so svc cannot tell it from a misspelt rule id (the API has no rule lookup)`,
      'check --rule-id; a gate on a rule that has never found anything cannot be verified: drop --rule-id until it has',
    );
  }
}

async function verifyScan(ctx: Context, client: Client, org: string | undefined, scanId: string, repoIds: string[] | undefined, o: WaitOptions, repositories: ScopeRepositories | undefined): Promise<{ id: string; status: string; repositoryId?: string }> {
  const body: Record<string, unknown> = { scanId, page: 1, pageSize: 10 };
  if (org !== undefined) body.organizationId = org;
  const what = 'gate: scans list';
  let item: Record<string, unknown> | undefined;
  // The scan's record checked against the request (answers/item-scope.ts), as `svc scans list` checks
  // it: a scan of another organization shows the filter was ignored (no PASS).
  const op = await rowOf('scans', 'list');
  const inScope = itemScopeCheck(op.path, { organizationId: org }, what, ctx.doubts.report);
  let others = 0;
  try {
    const data = await callRow(client, op, body, { what });
    item = findScan(data, scanId, ctx.doubts.report, what);
    const list = (data as { codeScans?: unknown } | null)?.codeScans;
    if (Array.isArray(list)) others = list.filter((x) => x !== null && typeof x === 'object' && String((x as Record<string, unknown>).scanId ?? (x as Record<string, unknown>).id) !== scanId).length;
  } catch (err) {
    // scans/list is not in the spec (field notes): a 404 for the path itself cannot tell the scan exists.
    if (err instanceof NotFoundError) throw new ScopeNotFoundError(`gate: scan ${q(scanId)} cannot be verified: ${err.message}`, 'the service may not offer scans/list; gate on --repository-ids instead');
    throw err;
  }
  if (!item) {
    // An answer of other scans only says the scanId filter was ignored, not that the scan does not exist.
    if (others > 0) throw refusal('item-foreign', what, `it answers ${others} other scan${others === 1 ? '' : 's'} but not ${q(scanId)}: the service ignored the scanId filter, so whether the scan exists cannot be told`);
    throw new ScopeNotFoundError(`gate: scan ${q(scanId)} not found${org === undefined ? '' : ` in organization ${q(org)}`}`, '`svc scans list` shows the scan ids; a typo in --scan-id would gate on nothing');
  }
  const repo = typeof item.repositoryId === 'string' ? item.repositoryId : undefined;
  if (repoIds && repo !== undefined && !repoIds.includes(repo)) {
    throw new ScopeNotFoundError(`gate: scan ${q(scanId)} is of repository ${q(repo)}, which --repository-ids does not name, so the scope holds nothing`, 'drop --repository-ids, or name the scan\'s repository');
  }
  const checkRecord = (rec: Record<string, unknown>) => {
    inScope?.(rec, 1);
    // A scan record carries no organizationId (field notes): its repository is checked against the scope's.
    if (repositories) inScopeScan(repositories, scanId, rec, ctx.doubts);
    // Its state: a word svc cannot read is refused (exit 7 naming it); a completed scan's message is a warning.
    return reportScan(rec, `gate: scan ${q(scanId)}`, ctx.doubts.report);
  };
  let state = checkRecord(item);
  if (state === 'running') {
    const status = String(item.status ?? 'running');
    if (!o.wait) {
      throw new ScanPendingError(
        `gate: scan ${q(scanId)} has not finished (status ${escapeControls(status)}): its issues are not all known yet, so there is no verdict`,
        `add --wait to wait for it (--wait-timeout, --poll-interval), or run the gate when \`svc scans list --scan-id ${scanId}\` says completed`,
      );
    }
    try {
      item = await waitForScan(ctx, scanId, org, o.wait);
    } catch (err) {
      if (err instanceof WaitTimeoutError) throw new ScanPendingError(err.message, err.hint ?? '');
      throw err;
    }
    // The record the wait ended on, checked as the first one was.
    state = checkRecord(item);
  }
  if (state === 'failed') {
    const why = typeof item.errorMessage === 'string' && item.errorMessage.trim() !== '' ? item.errorMessage.trim() : `status ${String(item.status)}`;
    throw new CliError(`gate: scan ${q(scanId)} failed: ${escapeControls(why)}`, EXIT.GATE_FAILED, 'a failed scan has no complete findings: fix the cause and scan again');
  }
  return { id: scanId, status: String(item.status ?? 'completed'), ...(repo !== undefined ? { repositoryId: repo } : {}) };
}

/** What verifyScope found: what was verified, and what the issues are checked against while counting. */
interface CheckedScope {
  verified: VerifiedScope;
  /** With --repository-ids: the organization's repository names (scope-repositories.ts). */
  repositoryNames?: RepositoryNames;
  /** The repositories of the scope (the organization's or the project's): each issue's is one of them. */
  repositories?: ScopeRepositories;
}

/** Verifies every id of the scope (the issue search body the gate will send); throws when one fails. */
export async function verifyScope(ctx: Context, scope: Record<string, unknown>, o: WaitOptions = {}): Promise<CheckedScope> {
  const client = await ctx.client();
  const org = typeof scope.organizationId === 'string' ? scope.organizationId : undefined;
  const repoIds = Array.isArray(scope.repositoryIds) ? scope.repositoryIds.map(String) : undefined;
  const project = typeof scope.projectId === 'string' ? scope.projectId : undefined;
  const scanId = typeof scope.scanId === 'string' ? scope.scanId : undefined;
  const rule = typeof scope.ruleId === 'string' ? scope.ruleId : undefined;
  const verified: VerifiedScope = { unverifiedFilters: Object.keys(FILTERS).filter((k) => scope[k] !== undefined).map((k) => FILTERS[k]) };
  const checked: CheckedScope = { verified };
  if (repoIds !== undefined && repoIds.length === 0) {
    // Flags cannot give an empty list (exit 2 while parsing); --input or -F can: it would widen the scope.
    throw new CliError('gate: repositoryIds is an empty list, which would widen the gate to the whole organization', EXIT.USAGE, 'name at least one repository, or leave repositoryIds out');
  }
  // The lookups are sent at once (each is a round trip before the first page); their failures are
  // reported in this order, the organization's first: the other lookups are answered within it.
  const lookups: Array<Promise<() => void>> = [];
  if (org !== undefined) lookups.push(verifyOrganization(client, org, ctx.doubts).then((found) => () => { if (found) verified.organization = org; }));
  // The repositories list is read once when the scope names anything (an organization, repositories,
  // a project, a scan): issues and scans carry no organizationId, so their repositoryId is what shows
  // the organization and project filters were honoured (scope-repositories.ts). With repositories or
  // a project it is one of the lookups; otherwise it follows them (an unknown organization is said
  // alone, never with a list request of it still in flight).
  const listRepositories = () => verifyRepositories(client, org, repoIds, project, ctx.doubts, o.resolvedUrl);
  const reposFirst = repoIds !== undefined || project !== undefined;
  if (reposFirst) {
    lookups.push(listRepositories().then(({ names, repositories }) => () => {
      if (names) checked.repositoryNames = names;
      checked.repositories = repositories;
      if (repoIds !== undefined) verified.repositories = repoIds;
      if (project !== undefined) verified.project = project;
    }));
  }
  if (rule !== undefined) lookups.push(verifyRule(client, org, rule).then(() => () => { verified.rule = rule; }));
  // A later lookup's failure is not reported when an earlier one fails (nor left unhandled).
  for (const l of lookups) l.catch(() => {});
  for (const l of lookups) (await l)();
  if (!reposFirst && (org !== undefined || scanId !== undefined)) checked.repositories = (await listRepositories()).repositories;
  // The scan last: with --wait it may wait minutes, which only an existing scope deserves.
  if (scanId !== undefined) verified.scan = await verifyScan(ctx, client, org, scanId, repoIds, o, checked.repositories);
  return checked;
}
