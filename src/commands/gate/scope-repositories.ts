/**
 * The repositories the gate's scope holds, as `repositories list` gives them (read once per gate, in
 * scope.ts): the organization's, or the project's with --project-id. An issue or a scan carries no
 * `organizationId` (the spec's Issue record, the field notes' scan item), so the organization and
 * project filters cannot be checked on the fields it carries; its `repositoryId` can: a repository
 * outside the scope's list shows that the service ignored the filter (exit 7), never a verdict on
 * another organization's issues. An item without a `repositoryId` cannot disagree (the repository
 * names check, repository-names.ts, covers --repository-ids). Cheap per issue: a property read and a
 * Set look-up.
 */
import { ResponseError } from '../../http/api-errors.js';
import { escapeControls } from '../../request/values.js';

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
