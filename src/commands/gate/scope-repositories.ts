/**
 * The repositories the gate's scope holds, as `repositories list` gives them (read once per gate, in
 * scope.ts): the organization's, or the project's with --project-id. An issue or a scan carries no
 * `organizationId` (the spec's Issue record, the field notes' scan item), so the organization and
 * project filters cannot be checked on the fields it carries; its `repositoryId` can: a repository
 * outside the scope's list shows that the service ignored the filter (exit 7), never a verdict on
 * another organization's issues: such an item is not counted, and no PASS is reached on the listing
 * (`item-outside-scope`, answers/checks.ts; a FAIL read in scope stands). Cheap per issue: a property
 * read and a Set look-up.
 *
 * By name (RepositoryNames, below): an issue that carries no `repositoryId` cannot disagree with
 * --repository-ids by id; its `repositoryName` can, where it is known to differ.
 */
import { escapeControls } from '../../core/sanitize.js';
import type { Doubts } from '../../answers/doubts.js';

export interface ScopeRepositories {
  /** The ids of the repositories of the scope. */
  ids: ReadonlySet<string>;
  /** Where they were listed: "organization 'org_a'", "project 'prj_a'", "the token's organization". */
  where: string;
}

/** The repositoryId an item carries, as a string; undefined when it carries none. */
function repositoryIdOf(item: Record<string, unknown>): string | undefined {
  const v = item.repositoryId;
  return typeof v === 'string' || typeof v === 'number' ? String(v) : undefined;
}

/** Whether an issue of the gate's listing is of a repository of the scope; one outside it is reported (not counted, no PASS). */
export function inScopeRepository(scope: ScopeRepositories, issue: Record<string, unknown>, page: number, doubts: Doubts): boolean {
  const repo = repositoryIdOf(issue);
  if (repo === undefined || scope.ids.has(repo)) return true;
  doubts.add('item-outside-scope', 'gate', `page ${page} holds issue '${escapeControls(String(issue.id))}' of repository '${escapeControls(repo)}', which is not a repository of ${scope.where} (repositories list gives ${scope.ids.size}): the service ignored the scope asked for; not counted`);
  return false;
}

/** Whether the scan the gate is scoped to is of a repository of the scope; one outside it is reported (no PASS). */
export function inScopeScan(scope: ScopeRepositories, scanId: string, scan: Record<string, unknown>, doubts: Doubts): boolean {
  const repo = repositoryIdOf(scan);
  if (repo === undefined || scope.ids.has(repo)) return true;
  doubts.add('item-outside-scope', 'gate', `scans list gives scan '${escapeControls(scanId)}' of repository '${escapeControls(repo)}', which is not a repository of ${scope.where} (repositories list gives ${scope.ids.size}), so the gate would judge a scan outside its scope`);
  return false;
}

/**
 * By name: an issue that carries no `repositoryId` cannot disagree with `--repository-ids` by id (the listing's
 * scope check reads the fields an item carries: answers/item-scope.ts). Its `repositoryName` can,
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

/** Whether an issue without a repositoryId may be of the repositories asked for; one named as another's is reported (not counted, no PASS). */
export function sameRepositoryName(names: RepositoryNames, issue: Record<string, unknown>, page: number, doubts: Doubts): boolean {
  if (issue.repositoryId !== undefined && issue.repositoryId !== null) return true;
  const name = issue.repositoryName;
  if (typeof name !== 'string' || names.asked.has(name)) return true;
  const other = names.others.get(name);
  if (other === undefined) return true;
  doubts.add('item-outside-scope', 'gate', `page ${page} holds issue '${escapeControls(String(issue.id))}' without a repositoryId, of repository '${escapeControls(name)}', which is ${other}'s name, outside the repositories asked for (${[...names.asked].map((n) => `'${escapeControls(n)}'`).join(', ')}): the service ignored the repositoryIds filter; not counted`);
  return false;
}
