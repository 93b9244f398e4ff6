/**
 * An issue that carries no `repositoryId` cannot disagree with `--repository-ids` by id (the listing's
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
import { ResponseError } from '../../http/api-errors.js';
import { escapeControls } from '../../core/sanitize.js';

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
