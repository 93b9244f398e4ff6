import { anyObject, body, bool, field, id, idResponse, int, issueId, list, loose, maybe, nullable, okResponse, oneOf, optional, orgId, record, repoId, type Schema, str, withDefault } from './fields.js';
import { repository } from './records.js';
import type { Operation, Source } from './types.js';
import type { DetailView } from '../output/detail.js';

const P = '/api/v1/repositories/';
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

/** A repository setter: `{ organizationId, repositoryId, <field> }`. */
function setter(name: string, summary: string, key: string, value: Schema, source: Source, example: string): Operation {
  return {
    group: 'repos', name, path: P + name, source: 'spec', safe: false, summary,
    ...(source === 'spec' ? {} : { description: INFERRED }),
    positional: 'repositoryId',
    required: ['repositoryId', key],
    request: body({ organizationId: orgId(source), repositoryId: repoId(source), [key]: value }),
    response: okResponse,
    columns: ['ok'],
    examples: [{ cmd: `svc repos ${name} repo_123 ${example}`, desc: summary }],
  };
}

const flag = (description: string, source: Source) => field(bool(), description, source);
const text = (description: string, source: Source, placeholder = 'text') =>
  field(nullable(str()), description, source, placeholder);

export const repositories: Operation[] = [
  {
    group: 'repos', name: 'list', path: P + 'list', source: 'spec', safe: true,
    summary: 'List linked repositories with their settings and issue counts',
    request: body({
      organizationId: orgId(),
      appId: field(id(), 'Installation (app) id to list repositories of', 'spec', 'id'),
      getCounts: field(withDefault(bool(), true), 'Include issueCounts'),
      searchQuery: field(str(), 'Filter repositories by name', 'notes', 'text'),
    }),
    response: list(repository),
    columns: ['id', 'name', 'defaultScanTargetBranch', 'isPrScanningEnabled', 'issueCounts.open', 'issueCounts.patched'],
    detail: REPOSITORY_VIEW,
    examples: [
      { cmd: 'svc repos list', desc: 'Repositories of the default organization' },
      { cmd: 'svc repos list --no-get-counts -o csv --columns id,name,url', desc: 'A CSV of ids, names and URLs without counting issues' },
    ],
  },
  {
    group: 'repos', name: 'add-hosta', path: P + 'add-hosta', source: 'spec', safe: false,
    summary: 'Link repositories from host A', description: NOT_SHOWN,
    request: body({ organizationId: orgId('inferred') }),
    response: idList, columns: ['id'],
    examples: [{ cmd: 'svc repos add-hosta --input repos.json', desc: 'Link host A repositories described in repos.json' }],
  },
  {
    group: 'repos', name: 'add-hostb', path: P + 'add-hostb', source: 'spec', safe: false,
    summary: 'Link repositories from host B', description: NOT_SHOWN,
    request: body({ organizationId: orgId('inferred') }),
    response: idList, columns: ['id'],
    examples: [{ cmd: 'svc repos add-hostb --input repos.json', desc: 'Link host B repositories described in repos.json' }],
  },
  {
    group: 'repos', name: 'add-hostc', path: P + 'add-hostc', source: 'spec', safe: false,
    summary: 'Link repositories from host C',
    request: body({
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
      { cmd: `svc repos add-hostc --repos '[{"repositoryUrl":"https://hostc.example/team/api","repositoryName":"api","defaultBranch":"main"}]'`, desc: 'Link one repository given inline' },
    ],
  },
  {
    group: 'repos', name: 'add-hosta-pat', path: P + 'add-hosta-pat', source: 'spec', safe: false,
    summary: 'Link a host A repository with a personal access token', description: NOT_SHOWN,
    request: body({ organizationId: orgId('inferred') }),
    response: idResponse, columns: ['id'],
    examples: [{ cmd: 'svc repos add-hosta-pat --input link.json', desc: 'Link with the body in link.json' }],
  },
  {
    group: 'repos', name: 'create-standalone', path: P + 'create-standalone', source: 'spec', safe: false,
    summary: 'Create a standalone repository (no git provider)', description: NOT_SHOWN,
    request: body({ organizationId: orgId('inferred') }),
    response: idResponse, columns: ['id'],
    examples: [{ cmd: 'svc repos create-standalone -f name=scratch', desc: 'Create a standalone repository named scratch' }],
  },
  {
    group: 'repos', name: 'delete', path: P + 'delete', source: 'spec', safe: false, destructive: true,
    summary: 'Delete (unlink) a repository',
    description: 'The spec does not show this body; { organizationId, repositoryId } is inferred from the setters. Send other fields with -F/--input.',
    positional: 'repositoryId', required: ['repositoryId'],
    request: body({ organizationId: orgId('inferred'), repositoryId: repoId('inferred') }),
    response: okResponse, columns: ['ok'],
    examples: [{ cmd: 'svc repos delete repo_123 --yes', desc: 'Delete repository repo_123 without a prompt' }],
  },
  setter('set-scan-branch', 'Set the branch full scans run on', 'defaultScanTargetBranch',
    field(id(), 'Branch to scan', 'inferred', 'branch'), 'inferred', '--default-scan-target-branch main'),
  setter('set-pr-scanning', 'Turn pull-request scanning on or off', 'isPrScanningEnabled',
    flag('Scan pull requests', 'spec'), 'spec', '--is-pr-scanning-enabled'),
  setter('set-pr-scan-issue-summary', 'Turn the PR issue-summary comment on or off', 'isPrScanSummaryEnabled',
    flag('Post the issue summary comment on pull requests', 'inferred'), 'inferred', '--is-pr-scan-summary-enabled'),
  setter('set-pr-scan-clean-summary', 'Turn the clean-scan summary comment on or off', 'isPrScanCleanSummaryEnabled',
    flag('Post a summary comment when a PR scan finds nothing', 'inferred'), 'inferred', '--no-is-pr-scan-clean-summary-enabled'),
  setter('set-pr-scan-summaries-enabled', 'Turn both PR summary comments on or off at once', 'isEnabled',
    flag('Enable both the issue-summary and the clean-scan summary comments', 'inferred'), 'inferred', '--is-enabled'),
  setter('set-max-pr-timeout', 'Set the maximum PR scan timeout, in minutes', 'maxPrTimeoutMinutes',
    field(int(1), 'Maximum PR timeout in minutes (field name from the field notes)', 'notes', 'minutes'), 'inferred', '--max-pr-timeout-minutes 30'),
  {
    group: 'repos', name: 'reset-scanner-settings', path: P + 'reset-scanner-settings', source: 'spec', safe: false, destructive: true,
    summary: 'Delete the custom scanner settings of the given repositories',
    description: 'The spec does not show this body; { organizationId, repositoryIds } is inferred. Send other fields with -F/--input.',
    required: ['repositoryIds'],
    request: body({
      organizationId: orgId('inferred'),
      repositoryIds: field(list(id()), 'Repositories whose settings to reset', 'inferred', 'ids'),
    }),
    response: anyObject, columns: [],
    examples: [{ cmd: 'svc repos reset-scanner-settings --repository-ids repo_1,repo_2 --yes', desc: 'Reset two repositories to the default scanner settings' }],
  },
  {
    group: 'repos', name: 'branches', path: P + 'branches', source: 'spec', safe: true,
    summary: 'List the branches of a linked repository (generic git: best effort)',
    description: 'The spec does not show this body; { organizationId, repositoryId } is inferred. Send other fields with -F/--input.',
    positional: 'repositoryId', required: ['repositoryId'],
    request: body({ organizationId: orgId('inferred'), repositoryId: repoId('inferred') }),
    response: anyObject, rows: 'branches', columns: ['name', 'isDefault'],
    examples: [{ cmd: 'svc repos branches repo_123', desc: 'Branches of repo_123' }],
  },
  setter('set-show-check-status', 'Show or hide the check status on pull requests', 'showCheckStatus',
    flag('Show the check status', 'inferred'), 'inferred', '--show-check-status'),
  setter('set-pr-branch-format', 'Set the branch name format of fix pull requests', 'prBranchFormat',
    text('Branch name format (null to reset via -F prBranchFormat=null)', 'inferred', 'format'), 'inferred', '--pr-branch-format "svc/fix-{issueId}"'),
  setter('set-pr-commit-message-format', 'Set the commit message format of fix pull requests', 'prCommitMessageFormat',
    text('Commit message format', 'inferred', 'format'), 'inferred', '--pr-commit-message-format "fix: {title}"'),
  setter('set-pr-title-template', 'Set the title template of fix pull requests', 'prTitleTemplate',
    field(str(), 'PR title template', 'spec', 'template'), 'spec', '--pr-title-template "Security fix: {title}"'),
  setter('set-pr-description-template', 'Set the description template of fix pull requests', 'prDescriptionTemplate',
    text('PR description template', 'inferred', 'template'), 'inferred', '-F prDescriptionTemplate=@pr-template.md'),
  {
    group: 'repos', name: 'resolve-by-url', path: P + 'resolve-by-url', source: 'spec', safe: true,
    summary: 'Find a linked repository from its URL',
    positional: 'repositoryUrl', required: ['repositoryUrl', 'vcs'],
    request: body({
      repositoryUrl: field(id(), 'URL of the repository', 'notes', 'url'),
      vcs: field(oneOf(['hosta', 'hostb', 'hostc', 'generic']), 'Version control system of the URL', 'notes'),
      organizationId: orgId('notes'),
    }),
    response: record({ repositoryId: optional(str()) }),
    columns: ['repositoryId'],
    examples: [{ cmd: 'svc repos resolve-by-url https://hosta.example/team/api --vcs hosta', desc: 'The repository id of a host A URL' }],
  },
];
