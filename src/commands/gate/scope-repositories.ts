/**
 * The repositories the gate's scope holds, as `repositories list` gives them (read once per gate, in
 * scope.ts): the organization's, or the project's with --project-id. An issue or a scan carries no
 * `organizationId` (the spec's Issue record, the field notes' scan item), so the organization and
 * project filters cannot be checked on the fields it carries; its `repositoryId` can: a repository
 * outside the scope's list shows that the service ignored the filter (exit 7), never a verdict on
 * another organization's issues. Cheap per issue: a property read and a Set look-up.
 *
 * By name (RepositoryNames, below): an issue that carries no `repositoryId` cannot disagree with
 * --repository-ids by id; its `repositoryName` can, where it is known to differ.
 */
import { ResponseError } from '../../http/api-errors.js';
import { escapeControls } from '../../core/sanitize.js';

export interface ScopeRepositories {
  /** The ids of the repositories of the scope. */
  ids: ReadonlySet<string>;
  /** Where they were listed: "organization 'org_a'", "project 'prj_a'", "the token's organization". */
  where: string;
}

const HINT = 'the service (or a proxy) answered something other than what was asked; no data from it is counted: check the base URL and the service version; --verbose shows the answer';

/** The repositoryId an item carries, as a string; undefined when it carries none. */
function repositoryIdOf(item: Record<string, unknown>): string | undefined {
  const v = item.repositoryId;
  return typeof v === 'string' || typeof v === 'number' ? String(v) : undefined;
}

/** Throws (exit 7) when an issue of the gate's listing names a repository outside the scope. */
export function checkIssueRepository(scope: ScopeRepositories, issue: Record<string, unknown>, page: number): void {
  const repo = repositoryIdOf(issue);
  if (repo === undefined || scope.ids.has(repo)) return;
  throw new ResponseError(
    `gate: page ${page} holds issue '${escapeControls(String(issue.id))}' of repository '${escapeControls(repo)}', which is not a repository of ${scope.where} (repositories list gives ${scope.ids.size}): the service ignored the scope asked for`,
    undefined, HINT,
  );
}

/** Throws (exit 7) when the scan the gate is scoped to is of a repository outside the scope. */
export function checkScanRepository(scope: ScopeRepositories, scanId: string, scan: Record<string, unknown>): void {
  const repo = repositoryIdOf(scan);
  if (repo === undefined || scope.ids.has(repo)) return;
  throw new ResponseError(
    `gate: scans list gives scan '${escapeControls(scanId)}' of repository '${escapeControls(repo)}', which is not a repository of ${scope.where} (repositories list gives ${scope.ids.size}), so the gate would judge a scan outside its scope`,
    undefined, HINT,
  );
}

/**
 * By name: an issue that carries no `repositoryId` cannot disagree with `--repository-ids` by id (the listing's
 * scope check reads the fields an item carries: listing/answer-checks.ts). Its `repositoryName` can,
 * where it is known to differ: the gate has listed the organization's repositories (scope.ts), and
 * a name that is another repository's (`name` of its record) and none of the ones asked for names
 * an issue outside the scope: the service ignored the filter (exit 7).
 *
 * Only then: the spec does not say that an issue's `repositoryName` is written as its repository's
 * `name` (`owner/name` against `name`, another case), so a name that matches no repository at all
 * cannot be told from the asked one written otherwise, and is taken as it is, as an issue without
 * a name is. An issue with a `repositoryId` is judged by it. Cheap per issue: a property read and
 * two set look-ups when the id is missing.
 */
export interface RepositoryNames {
  /** Names of the repositories asked for. */
  asked: ReadonlySet<string>;
  /** Name -> id of the organization's other repositories. */
  others: ReadonlyMap<string, string>;
}

/** The names to check issues against, from the organization's repository records; undefined when none are. */
export function repositoryNames(records: ReadonlyArray<Record<string, unknown>>, repoIds: readonly string[]): RepositoryNames | undefined {
  const asked = new Set<string>();
  const others = new Map<string, string>();
  const ids = new Set(repoIds);
  for (const r of records) {
    if (typeof r.name !== 'string' || r.name === '') continue;
    if (ids.has(String(r.id))) asked.add(r.name);
    else others.set(r.name, String(r.id));
  }
  for (const name of asked) others.delete(name);
  return others.size > 0 ? { asked, others } : undefined;
}

/** Throws (exit 7) when an issue without a repositoryId names another repository of the organization. */
export function checkRepositoryName(names: RepositoryNames, issue: Record<string, unknown>, page: number): void {
  if (issue.repositoryId !== undefined && issue.repositoryId !== null) return;
  const name = issue.repositoryName;
  if (typeof name !== 'string' || names.asked.has(name)) return;
  const other = names.others.get(name);
  if (other === undefined) return;
  throw new ResponseError(
    `gate: page ${page} holds issue '${escapeControls(String(issue.id))}' without a repositoryId, of repository '${escapeControls(name)}', which is ${other}'s name, outside the repositories asked for (${[...names.asked].map((n) => `'${escapeControls(n)}'`).join(', ')}): the service ignored the repositoryIds filter`,
    undefined, 'the service (or a proxy) answered something other than what was asked; no data from it is counted: check the base URL and the service version; --verbose shows the answer',
  );
}
