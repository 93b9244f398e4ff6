import { anyObject, body, bool, field, id, idResponse, int, list, loose, maybe, nullable, okResponse, oneOf, optional, orgId, orgIdNamed, record, repoId, str, withDefault } from './fields.js';
import * as z from './zod.js';
import { repository } from './records.js';
import type { Operation, Source } from './types.js';
import { row, type RowSpec } from './row.js';
import type { DetailView } from './detail-view.js';

// Values checked before sending, used by this group's setters only (not built for other groups' calls).
/**
 * A git branch name, checked before sending as git's own check-ref-format does: no space, control
 * character, `~ ^ : ? * [ \\`, `..`, `@{` or `//`; not `@`, not starting with `-`, `/` or `.`, not
 * ending with `/`, `.` or `.lock`, no part starting with `.` (the service could not scan such a branch).
 */
const branchName = () => z.string().check(z.minLength(1), z.check((ctx) => {
  const problem = branchProblem(ctx.value);
  if (problem) ctx.issues.push({ code: 'custom', message: `is not a git branch name: ${problem}`, input: ctx.value });
}));

function branchProblem(b: string): string | undefined {
  if (b === '') return undefined; // "must not be empty" says it
  if (/\s/.test(b)) return 'it holds white space';
  const bad = /[~^:?*[\\]/.exec(b);
  if (bad) return `it holds '${bad[0]}'`;
  if (b.includes('..')) return "it holds '..'";
  if (b.includes('@{')) return "it holds '@{'";
  if (b.includes('//')) return "it holds '//'";
  if (b === '@') return "'@' alone is not a branch";
  if (/^[-/.]/.test(b)) return `it starts with '${b[0]}'`;
  if (/(\/|\.|\.lock)$/.test(b)) return `it ends with '${/\.lock$/.test(b) ? '.lock' : b.slice(-1)}'`;
  if (b.includes('/.')) return "a part of it starts with '.'";
  return undefined;
}

/** Text of one line (a pull request's title, a branch name's format): free text without a line break. */
const oneLine = (what: string) => z.string().check(z.check((ctx) => {
  if (/[\r\n\u2028\u2029]/.test(ctx.value)) ctx.issues.push({ code: 'custom', message: `must be one line (${what} holds no line break)`, input: ctx.value });
}));

const idList = list(record({ id: str() }));
const INFERRED = 'The spec does not show this body; the field notes read the setters as { organizationId, repositoryId, <Repository record field> }: the value flag is that inference. Send other fields with -F/--input.';
const NOT_SHOWN = 'The spec and the field notes do not show this body: send its fields with -F/--input.';

/** One repository as a person reads it (`repos list` that finds one). */
const REPOSITORY_VIEW: DetailView = {
  title: 'name',
  fields: [
    { label: 'ID', path: 'id' },
    { label: 'URL', path: 'url' },
    { label: 'Branch', path: 'defaultScanTargetBranch' },
    { label: 'Issues', path: 'issueCounts', show: 'counts' },
    { label: 'PR scans', path: 'isPrScanningEnabled' },
    { label: 'PR summary', path: 'isPrScanSummaryEnabled' },
    { label: 'Check status', path: 'showCheckStatus' },
    { label: 'Validation', path: 'validationThresholdName' },
    { label: 'PR branch', path: 'prBranchFormat' },
    { label: 'PR title', path: 'prTitleTemplate' },
  ],
  next: [
    { text: 'Its open issues:', cmd: 'svc issues search --repository-ids {id} --types open' },
    { text: 'Scan it now:', cmd: 'svc scans start --repository-ids {id} --wait' },
  ],
};

/** Setters take `{ organizationId, repositoryId, <field> }` and answer `{ ok }`. */
const SETTER: Pick<RowSpec, 'effect' | 'positional' | 'response' | 'columns'> = {
  effect: 'change', positional: 'repositoryId', response: okResponse, columns: ['ok'],
};
/**
 * What a setter changed, said in words on a terminal: `PR scanning: on for payments-api` (the
 * repository's name: the one given, else looked up once; its id when the lookup fails).
 */
const changed = (heading: string): Pick<RowSpec, 'detail'> => ({
  detail: { whole: true, heading: `${heading} for {repositoryName||repositoryId}`, fields: [], next: [{ text: 'See the repository:', cmd: 'svc repos list --columns id,name,branch,pr-scans,open' }] },
});
const flag = (description: string, source: Source) => field(bool(), description, source);
const text = (description: string, source: Source, placeholder = 'text') =>
  field(nullable(str()), description, source, placeholder);

export const repositories: Operation[] = [
  row('repos', 'list', {
    effect: 'read',
    summary: 'List linked repositories with their settings and issue counts',
    request: () => body({
      organizationId: orgId(),
      appId: field(id(), 'Installation (app) id to list repositories of', 'spec', 'id'),
      getCounts: field(withDefault(bool(), true), 'Include issueCounts'),
      searchQuery: field(str(), 'Filter repositories by name', 'notes', 'text'),
    }),
    response: list(repository),
    columns: ['id', 'name', 'defaultScanTargetBranch', 'isPrScanningEnabled', 'issueCounts.open', 'issueCounts.patched'],
    detail: REPOSITORY_VIEW,
    showsOrganization: true,
    examples: [
      { cmd: 'svc repos list', desc: 'Repositories of the default organization' },
      { cmd: 'svc repos list --no-get-counts -o csv --columns id,name,url', desc: 'A CSV of ids, names and URLs without counting issues' },
    ],
  }),
  row('repos', 'add-hosta', {
    effect: 'change',
    summary: 'Link repositories from host A', description: NOT_SHOWN,
    request: () => body({ organizationId: orgId('inferred') }),
    response: idList, columns: ['id'],
    examples: [{ cmd: 'svc repos add-hosta --input repos.json', desc: 'Link host A repositories described in repos.json' }],
  }),
  row('repos', 'add-hostb', {
    effect: 'change',
    summary: 'Link repositories from host B', description: NOT_SHOWN,
    request: () => body({ organizationId: orgId('inferred') }),
    response: idList, columns: ['id'],
    examples: [{ cmd: 'svc repos add-hostb --input repos.json', desc: 'Link host B repositories described in repos.json' }],
  }),
  row('repos', 'add-hostc', {
    effect: 'change',
    summary: 'Link repositories from host C',
    request: () => body({
      organizationId: orgId(),
      repos: field(list(loose({
        gitAuthorEmail: maybe(str()),
        repositoryUrl: maybe(str()),
        repositoryName: maybe(str()),
        defaultBranch: maybe(str()),
        webhookSigningSecret: maybe(str()),
      })), 'Repositories to link: a JSON array of {gitAuthorEmail, repositoryUrl, repositoryName, defaultBranch, webhookSigningSecret}, or @file', 'spec', 'json|@file'),
    }),
    response: idList, columns: ['id'],
    required: ['repos'],
    examples: [
      { cmd: 'svc repos add-hostc --repos @repos.json', desc: 'Link the host C repositories listed in repos.json' },
      { cmd: `svc repos add-hostc --repos '[{"repositoryUrl":"https://hostc.example/api","repositoryName":"api"}]'`, desc: 'Link one repository given inline' },
    ],
  }),
  row('repos', 'add-hosta-pat', {
    effect: 'change',
    summary: 'Link a host A repository with a personal access token', description: NOT_SHOWN,
    request: () => body({ organizationId: orgId('inferred') }),
    response: idResponse, columns: ['id'],
    examples: [{ cmd: 'svc repos add-hosta-pat --input link.json', desc: 'Link with the body in link.json' }],
  }),
  row('repos', 'create-standalone', {
    effect: 'change',
    summary: 'Create a standalone repository (no git provider)', description: NOT_SHOWN,
    request: () => body({ organizationId: orgId('inferred') }),
    response: idResponse, columns: ['id'],
    examples: [{ cmd: 'svc repos create-standalone -f name=scratch', desc: 'Create a standalone repository named scratch' }],
  }),
  row('repos', 'delete', {
    effect: 'destroy',
    summary: 'Delete (unlink) a repository',
    description: 'The spec does not show this body; { organizationId, repositoryId } is inferred from the setters. Send other fields with -F/--input.',
    positional: 'repositoryId', required: ['repositoryId'],
    request: () => body({ organizationId: orgIdNamed('inferred'), repositoryId: repoId('inferred') }),
    response: okResponse, columns: ['ok'],
    examples: [{ cmd: 'svc repos delete repo_123 --yes', desc: 'Delete repository repo_123 without a prompt' }],
  }),
  row('repos', 'set-scan-branch', {
    ...SETTER,
    ...changed('Scan branch: {defaultScanTargetBranch}'),
    summary: 'Set the branch full scans run on',
    description: INFERRED,
    required: ['repositoryId', 'defaultScanTargetBranch'],
    request: () => body({ organizationId: orgId('inferred'), repositoryId: repoId('inferred'), defaultScanTargetBranch: field(branchName(), 'Branch to scan (a git branch name: no spaces, checked before sending)', 'inferred', 'branch') }),
    examples: [{ cmd: 'svc repos set-scan-branch repo_123 --default-scan-target-branch main', desc: 'Set the branch full scans run on' }],
  }),
  row('repos', 'set-pr-scanning', {
    ...SETTER,
    ...changed('PR scanning: {isPrScanningEnabled|on}'),
    summary: 'Turn pull-request scanning on or off',
    required: ['repositoryId', 'isPrScanningEnabled'],
    request: () => body({ organizationId: orgId(), repositoryId: repoId(), isPrScanningEnabled: flag('Scan pull requests', 'spec') }),
    examples: [{ cmd: 'svc repos set-pr-scanning repo_123 --is-pr-scanning-enabled', desc: 'Turn pull-request scanning on or off' }],
  }),
  row('repos', 'set-pr-scan-issue-summary', {
    ...SETTER,
    ...changed('PR issue-summary comment: {isPrScanSummaryEnabled|on}'),
    summary: 'Turn the PR issue-summary comment on or off',
    description: INFERRED,
    required: ['repositoryId', 'isPrScanSummaryEnabled'],
    request: () => body({ organizationId: orgId('inferred'), repositoryId: repoId('inferred'), isPrScanSummaryEnabled: flag('Post the issue summary comment on pull requests', 'inferred') }),
    examples: [{ cmd: 'svc repos set-pr-scan-issue-summary repo_123 --is-pr-scan-summary-enabled', desc: 'Turn the PR issue-summary comment on or off' }],
  }),
  row('repos', 'set-pr-scan-clean-summary', {
    ...SETTER,
    ...changed('PR clean-scan summary comment: {isPrScanCleanSummaryEnabled|on}'),
    summary: 'Turn the clean-scan summary comment on or off',
    description: INFERRED,
    required: ['repositoryId', 'isPrScanCleanSummaryEnabled'],
    request: () => body({ organizationId: orgId('inferred'), repositoryId: repoId('inferred'), isPrScanCleanSummaryEnabled: flag('Post a summary comment when a PR scan finds nothing', 'inferred') }),
    examples: [{ cmd: 'svc repos set-pr-scan-clean-summary repo_123 --no-is-pr-scan-clean-summary-enabled', desc: 'Turn the clean-scan summary comment on or off' }],
  }),
  row('repos', 'set-pr-scan-summaries-enabled', {
    ...SETTER,
    ...changed('PR summary comments: {isEnabled|on}'),
    summary: 'Turn both PR summary comments on or off at once',
    description: INFERRED,
    required: ['repositoryId', 'isEnabled'],
    request: () => body({ organizationId: orgId('inferred'), repositoryId: repoId('inferred'), isEnabled: flag('Enable both the issue-summary and the clean-scan summary comments', 'inferred') }),
    examples: [{ cmd: 'svc repos set-pr-scan-summaries-enabled repo_123 --is-enabled', desc: 'Turn both PR summary comments on or off at once' }],
  }),
  row('repos', 'set-max-pr-timeout', {
    ...SETTER,
    ...changed('Maximum PR scan timeout: {maxPrTimeoutMinutes} minutes'),
    summary: 'Set the maximum PR scan timeout, in minutes',
    description: INFERRED,
    required: ['repositoryId', 'maxPrTimeoutMinutes'],
    request: () => body({ organizationId: orgId('inferred'), repositoryId: repoId('inferred'), maxPrTimeoutMinutes: field(int(1), 'Maximum PR timeout in minutes (field name from the field notes)', 'notes', 'minutes') }),
    examples: [{ cmd: 'svc repos set-max-pr-timeout repo_123 --max-pr-timeout-minutes 30', desc: 'Set the maximum PR scan timeout, in minutes' }],
  }),
  row('repos', 'reset-scanner-settings', {
    effect: 'destroy',
    summary: 'Delete the custom scanner settings of the given repositories',
    description: 'The spec does not show this body; { organizationId, repositoryIds } is inferred. Send other fields with -F/--input.',
    required: ['repositoryIds'],
    request: () => body({
      organizationId: orgIdNamed('inferred'),
      repositoryIds: field(list(id()), 'Repositories whose settings to reset (ids, names, owner/name or URLs)', 'inferred', 'ids'),
    }),
    response: anyObject, columns: [],
    examples: [{ cmd: 'svc repos reset-scanner-settings --repository-ids repo_1,repo_2 --yes', desc: 'Reset two repositories to the default scanner settings' }],
  }),
  row('repos', 'branches', {
    effect: 'read',
    summary: 'List the branches of a linked repository (generic git: best effort)',
    description: 'The spec does not show this body; { organizationId, repositoryId } is inferred. Send other fields with -F/--input.',
    positional: 'repositoryId', required: ['repositoryId'],
    request: () => body({ organizationId: orgId('inferred'), repositoryId: repoId('inferred') }),
    response: anyObject, rows: 'branches', columns: ['name', 'isDefault'],
    examples: [{ cmd: 'svc repos branches repo_123', desc: 'Branches of repo_123' }],
  }),
  row('repos', 'set-show-check-status', {
    ...SETTER,
    ...changed('Check status on pull requests: {showCheckStatus|on}'),
    summary: 'Show or hide the check status on pull requests',
    description: INFERRED,
    required: ['repositoryId', 'showCheckStatus'],
    request: () => body({ organizationId: orgId('inferred'), repositoryId: repoId('inferred'), showCheckStatus: flag('Show the check status', 'inferred') }),
    examples: [{ cmd: 'svc repos set-show-check-status repo_123 --show-check-status', desc: 'Show or hide the check status on pull requests' }],
  }),
  row('repos', 'set-pr-branch-format', {
    ...SETTER,
    ...changed('Fix PR branch format: {prBranchFormat}'),
    summary: 'Set the branch name format of fix pull requests',
    description: INFERRED,
    required: ['repositoryId', 'prBranchFormat'],
    request: () => body({ organizationId: orgId('inferred'), repositoryId: repoId('inferred'), prBranchFormat: text('Branch name format (null to reset via -F prBranchFormat=null)', 'inferred', 'format') }),
    examples: [{ cmd: 'svc repos set-pr-branch-format repo_123 --pr-branch-format "svc/fix-{issueId}"', desc: 'Set the branch name format of fix pull requests' }],
  }),
  row('repos', 'set-pr-commit-message-format', {
    ...SETTER,
    ...changed('Fix PR commit message format: {prCommitMessageFormat}'),
    summary: 'Set the commit message format of fix pull requests',
    description: INFERRED,
    required: ['repositoryId', 'prCommitMessageFormat'],
    request: () => body({ organizationId: orgId('inferred'), repositoryId: repoId('inferred'), prCommitMessageFormat: text('Commit message format', 'inferred', 'format') }),
    examples: [{ cmd: 'svc repos set-pr-commit-message-format repo_123 --pr-commit-message-format "fix: {title}"', desc: 'Set the commit message format of fix pull requests' }],
  }),
  row('repos', 'set-pr-title-template', {
    ...SETTER,
    ...changed('Fix PR title template: {prTitleTemplate}'),
    summary: 'Set the title template of fix pull requests',
    required: ['repositoryId', 'prTitleTemplate'],
    request: () => body({ organizationId: orgId(), repositoryId: repoId(), prTitleTemplate: field(oneLine('a pull request title'), 'PR title template (one line)', 'spec', 'template') }),
    examples: [{ cmd: 'svc repos set-pr-title-template repo_123 --pr-title-template "Security fix: {title}"', desc: 'Set the title template of fix pull requests' }],
  }),
  row('repos', 'set-pr-description-template', {
    ...SETTER,
    ...changed('Fix PR description template: updated'),
    summary: 'Set the description template of fix pull requests',
    description: INFERRED,
    required: ['repositoryId', 'prDescriptionTemplate'],
    request: () => body({ organizationId: orgId('inferred'), repositoryId: repoId('inferred'), prDescriptionTemplate: text('PR description template', 'inferred', 'template') }),
    examples: [{ cmd: 'svc repos set-pr-description-template repo_123 -F prDescriptionTemplate=@pr-template.md', desc: 'Set the description template of fix pull requests' }],
  }),
  row('repos', 'resolve-by-url', {
    effect: 'read',
    summary: 'Find a linked repository from its URL',
    description: 'Any URL form people write works: https or http, the host in any case, with or without .git and a trailing slash, git@host:owner/name.git.',
    positional: 'repositoryUrl', required: ['repositoryUrl', 'vcs'],
    infer: {
      field: 'vcs', step: 'repository-vcs',
      how: "without --vcs, svc works it out: the public host's provider (host A's, host B's or host C's public site), the CI's own when the URL is on the server of the CI it runs in, else the provider of the linked repository with that URL (repos list); none: exit 4 naming the closest linked repositories",
    },
    request: () => body({
      repositoryUrl: field(id(), 'URL of the repository', 'notes', 'url'),
      vcs: field(oneOf(['hosta', 'hostb', 'hostc', 'generic']), 'Version control system of the URL (worked out from the URL when not given)', 'notes'),
      organizationId: orgId('notes'),
    }),
    response: () => record({ repositoryId: optional(str()) }),
    columns: ['repositoryId'],
    examples: [
      { cmd: 'svc repos resolve-by-url https://hosta.example/team/api', desc: 'The repository id of a linked repository, its provider worked out' },
      { cmd: 'svc repos resolve-by-url https://hosta.example/team/api --vcs hosta', desc: 'The same, its provider given' },
    ],
  }),
];
