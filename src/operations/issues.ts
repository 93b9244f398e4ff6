import { body, bool, field, id, int, issueId, list, loose, num, okResponse, oneOf, optional, orgId, record, str, withDefault } from './fields.js';
import { ISSUE_STATUSES_SEEN, categoryCounts, issue } from './issue-records.js';
import type { Operation } from './types.js';
import { row, type RowSpec } from './row.js';
import type { DetailView } from './detail-view.js';

/**
 * A search's table: LEVEL (from the score, as the gate counts) beside the score; on a narrow terminal
 * the columns from the right give way (FILE with LINE, CLASS, STATUS, SCORE) before the title is cut
 * below a readable share of the width (output/layout.ts), and STATUS is said once when every row has
 * the same (an open-only search).
 */
const COLUMNS = ['id', 'level', 'score', 'status', 'vulnClass', 'repositoryName', 'affectedFile', 'startLine', 'generatedTitle'];
/** A search's CSV: what a spreadsheet sorts and filters by, the CWE and the date too. */
const CSV_COLUMNS = ['id', 'level', 'score', 'status', 'vulnClass', 'cwes', 'repositoryName', 'affectedFile', 'startLine', 'generatedTitle', 'createdAt'];

/** One issue as a person reads it (`issues get`). */
const ISSUE_VIEW: DetailView = {
  title: 'generatedTitle',
  fields: [
    { label: 'ID', path: 'id' },
    { label: 'Level', path: 'score', show: 'level' },
    { label: 'Status', path: 'status', show: 'status' },
    // The service's own verdict on the finding (CONFIRMED, DISCONFIRMED, UNKNOWN in public clients):
    // what a triager weighs first, with its assessment as the first section.
    { label: 'Validated', path: 'validated', show: 'status' },
    { label: 'Repository', show: 'repository' },
    { label: 'Location', show: 'location' },
    { label: 'Class', path: 'vulnClass' },
    { label: 'CWE', path: 'cwes', show: 'cwes' },
    { label: 'Language', path: 'language' },
    { label: 'Confidence', path: 'confidence' },
    { label: 'Found', path: 'createdAt', show: 'time' },
    { label: 'Updated', path: 'updatedAt', show: 'time' },
    { label: 'Reason', path: 'falsePositiveReason', show: 'text' },
    { label: 'Changed by', path: 'stateChangeAuthor' },
    { label: 'Patch', path: 'patch.pullRequestStatus', show: 'status' },
    { label: 'PR', path: 'patch.prLink' },
  ],
  sections: [
    { label: 'Validation assessment', path: 'validationSecurityAssessment', show: 'text' },
    { label: 'Description', path: 'generatedDescription', show: 'text' },
    { label: 'Scenario', path: 'businessLogicScenario', show: 'text' },
    { label: 'Code', path: 'sastCodeSegment', show: 'code' },
    { label: 'Patch', path: 'patch.gitDiff', show: 'diff' },
  ],
  // What fits the status: no patch for what is not open, a way back for what was set aside.
  next: [
    { when: '!patch&status=open', text: 'Ask for a patch:', cmd: 'svc issues generate-patch {id}' },
    { when: 'patch.gitDiff&status!=falsePositive|archived|closed', text: 'Approve the patch (opens its pull request):', cmd: 'svc issues approve-patch {id}' },
    { when: 'status=open', text: 'Or set it aside, saying why:', cmd: 'svc issues mark-false-positive {id} --reason "..."' },
    { when: 'status=falsePositive', text: 'A real issue after all? Confirm it (it is open again):', cmd: 'svc issues mark-true-positive {id}' },
    { when: 'status=archived', text: 'Bring it back from the archive:', cmd: 'svc issues unarchive {id}' },
  ],
};

/** An action on one issue: `{ issueId, organizationId }` (field notes). */
const ISSUE_ACTION: Pick<RowSpec, 'positional' | 'required' | 'request' | 'response' | 'columns'> = {
  positional: 'issueId', required: ['issueId'],
  request: () => body({ issueId: issueId(), organizationId: orgId('notes') }),
  response: okResponse,
  columns: ['ok'],
};

/**
 * Why an issue is a false positive or archived: sent as `falsePositiveReason`, the only reason field
 * of the Issue record (the spec shows no request fields for these actions; the name is inferred).
 */
const reason = (what: string) => field(str(), `Why it is ${what}: sent as falsePositiveReason, the Issue record's reason field (the name is inferred from the record; the spec shows no request fields here)`, 'inferred', 'text', { flag: 'reason', fromFile: true });

/**
 * What the spec does not state about the actions that undo others (it shows no transitions): what
 * public clients use them for, and what the sandbox does (docs/sandbox.md). Help says it as inferred.
 */
const UNARCHIVE_STATUS = 'the status an issue comes back to is not stated (public clients show it open again, as the sandbox does, also one archived from another status)';
const TRUE_POSITIVE_EFFECT = 'The spec states no transitions: public clients use mark-true-positive to reopen a false positive (the sandbox: open, its reason cleared); what it does to an archived, patched or closed issue is not stated (the sandbox records the confirmation, validated CONFIRMED, and leaves the status as it is)';

/** What a person reads when an action on one issue worked: the heading, the issue, where to look next. */
const done = (heading: string): DetailView => ({
  heading, fields: [{ label: 'Issue', path: 'issueId' }], next: [{ text: 'See the issue:', cmd: 'svc issues get {issueId}' }],
});

export const issues: Operation[] = [
  row('issues', 'search', {
    effect: 'read',
    summary: 'Search security issues with filters, sorting and paging',
    request: () => body({
      organizationId: orgId(),
      page: field(withDefault(int(1), 1), 'Page number', 'spec', 'n'),
      pageSize: field(withDefault(int(1), 10), 'Issues per page (clients use up to 500)', 'spec', 'n'),
      searchQuery: field(str(), 'Free-text search', 'spec', 'text'),
      severities: field(loose({
        min: field(num(), 'Lowest severity', 'spec', 'n'),
        max: field(num(), 'Highest severity', 'spec', 'n'),
      }), 'Severity range (0-10 in public clients)'),
      sortBy: field(withDefault(oneOf(['createdAt', 'severity', 'score']), 'score'), 'Sort key'),
      sortOrder: field(withDefault(oneOf(['asc', 'desc']), 'desc'), 'Sort order'),
      languages: field(list(id()), 'Only these languages', 'spec', 'langs'),
      vulnerabilityClasses: field(list(id()), 'Only these vulnerability classes', 'spec', 'classes'),
      repositoryIds: field(list(id()), 'Only these repositories (ids, names, owner/name or URLs)', 'spec', 'ids'),
      projectId: field(id(), 'Project id', 'spec', 'id'),
      scanId: field(id(), 'Only issues of this scan', 'spec', 'id'),
      codeScanTypes: field(list(oneOf(['FullScan', 'PrScan'])), 'Scan types (spec shows FullScan; PrScan from the field notes)'),
      types: field(list(oneOf(ISSUE_STATUSES_SEEN)), 'Issue statuses (spec shows open; the rest from the field notes)'),
      getCounts: field(bool(), 'Include categoryCounts'),
      returnAll: field(bool(), 'Ask the service for every match in one response'),
      ruleId: field(id(), 'Only issues found by this custom rule', 'spec', 'id'),
    }),
    response: () => record({
      issues: list(issue),
      totalCount: optional(int()),
      totalCountAllCategories: optional(int()),
      categoryCounts: optional(categoryCounts),
      currentPage: optional(int()),
      pageSize: optional(int()),
    }),
    rows: 'issues',
    columns: COLUMNS,
    csvColumns: CSV_COLUMNS,
    idAliases: ['issueId'],
    pagination: { page: 'page', pageSize: 'pageSize', items: 'issues', total: 'totalCount', maxPageSize: 500,
      id: 'id', idAliases: ['issueId'], stableOrder: { sortBy: 'createdAt', sortOrder: 'asc' },
      counts: ['totalCountAllCategories', 'categoryCounts'],
      pageFields: ['totalCountAllCategories', 'categoryCounts', 'currentPage', 'pageSize'] },
    localFilters: {
      filters: [
        { flags: '--min-score <n>', test: 'min-score', path: 'score', description: 'Only issues with a score of n or more (0-100; filtered by svc)' },
        { flags: '--level <level>', test: 'level', path: 'score', description: "Only issues of this level or above, from score with the gate's cut-offs: critical 90, high 70, medium 40, low 10 (filtered by svc; no score counts as critical, as in the gate)" },
        { flags: '--created-after <date|7d>', test: 'after', path: 'createdAt', description: 'Only issues created after a date (2026-11-01, UTC), a date-time with a zone, or a time back from now (12h, 7d, 2w) (filtered by svc)' },
      ],
      why: 'the search has no score or date filter; its severities range is the 0-10 severity, not the score',
      unfilteredCounts: ['totalCount', 'totalCountAllCategories', 'categoryCounts'],
    },
    examples: [
      { cmd: 'svc issues search --types open --sort-by score', desc: 'Open issues, highest score first' },
      { cmd: 'svc issues search --repository-ids repo_1,repo_2 --severities-min 7 -o csv', desc: 'Severity 7 and above in two repositories, as CSV' },
      { cmd: 'svc issues search --all -o ndjson > issues.ndjson', desc: 'Every issue, one JSON object a line' },
      { cmd: 'svc issues search --all --types open --level high --created-after 7d', desc: 'Open high and critical issues of the last 7 days (as the gate counts them)' },
    ],
  }),
  row('issues', 'get', {
    ...ISSUE_ACTION,
    effect: 'read',
    summary: 'Show one issue with its patch',
    response: issue,
    examples: [{ cmd: 'svc issues get iss_123', desc: 'Show one issue with its patch' }],
    columns: ['id', 'status', 'score', 'severity', 'vulnClass', 'affectedFile', 'startLine', 'generatedTitle'],
    detail: ISSUE_VIEW,
  }),
  row('issues', 'archive', {
    ...ISSUE_ACTION,
    effect: 'change',
    bulk: { done: 'archived', undoes: 'unarchive', undo: { by: 'unarchive', inferred: UNARCHIVE_STATUS } },
    summary: 'Archive an issue',
    request: () => body({ issueId: issueId(), organizationId: orgId('notes'), falsePositiveReason: reason('archived') }),
    examples: [
      { cmd: 'svc issues archive iss_123', desc: 'Archive an issue' },
      { cmd: 'svc issues archive iss_123 iss_456 --reason "Vendored code we do not ship"', desc: 'Archive two issues, saying why' },
      { cmd: 'svc issues archive --where types=open --where search-query=fixtures --yes -o ndjson > archived.ndjson', desc: 'Archive what a search finds, keeping the record of what was done (undo: svc issues unarchive --ids-from archived.ndjson)' },
    ],
    detail: done('Issue archived.'),
  }),
  row('issues', 'unarchive', {
    ...ISSUE_ACTION,
    effect: 'change', source: 'notes',
    bulk: { done: 'brought back', undoes: 'archive', undo: { by: 'archive', inferred: 'the reason the first archive was given is not sent again' } },
    summary: 'Bring an archived issue back (beyond the spec: seen in public clients)',
    description: `Not in the spec: public clients send { issueId, organizationId } to issues/unarchive. ${UNARCHIVE_STATUS[0].toUpperCase()}${UNARCHIVE_STATUS.slice(1)}.`,
    examples: [
      { cmd: 'svc issues unarchive iss_123', desc: 'Bring an archived issue back (beyond the spec: seen in public clients)' },
      { cmd: 'svc issues unarchive --ids-from archived.ndjson', desc: 'Undo a bulk archive: its -o ndjson record, only the ids it archived' },
      { cmd: 'svc issues unarchive --where types=archived --where repository-ids=payments-api --yes', desc: 'Bring back every archived issue of a repository' },
    ],
    detail: done('Issue brought back from the archive.'),
  }),
  row('issues', 'mark-true-positive', {
    ...ISSUE_ACTION,
    effect: 'change',
    bulk: { done: 'marked true positive', undoes: 'mark-false-positive', undo: { none: 'the API has no call that takes a confirmation back (an issue it reopened from false positive is set aside again with mark-false-positive --reason)' } },
    summary: 'Confirm an issue as a true positive',
    description: `${TRUE_POSITIVE_EFFECT}.`,
    examples: [
      { cmd: 'svc issues mark-true-positive iss_123', desc: 'Confirm an issue as a true positive' },
      { cmd: 'svc issues mark-true-positive --ids-from marked.ndjson', desc: 'Undo a bulk mark-false-positive: its -o ndjson record, only the ids it marked' },
    ],
    detail: done('Issue confirmed as a true positive.'),
  }),
  row('issues', 'mark-false-positive', {
    ...ISSUE_ACTION,
    effect: 'change',
    bulk: { done: 'marked false positive', undo: { by: 'mark-true-positive', inferred: 'that it reopens a false positive (the spec states no transitions; public clients use it so, and the sandbox does)' } },
    summary: 'Mark an issue as a false positive',
    request: () => body({ issueId: issueId(), organizationId: orgId('notes'), falsePositiveReason: reason('a false positive') }),
    examples: [
      { cmd: 'svc issues mark-false-positive iss_123 --reason "Input is validated upstream"', desc: 'Mark an issue as a false positive, saying why' },
      { cmd: 'svc issues mark-false-positive --ids-from ids.ndjson --reason-from why.txt', desc: 'Mark the issues of a file (ids, or `svc issues search -o ndjson` output), the reason read from another' },
    ],
    detail: done('Issue marked as a false positive.'),
  }),
  row('issues', 'generate-patch', {
    ...ISSUE_ACTION,
    effect: 'change', bulk: { done: 'patches requested', undo: { none: 'the API has no call that withdraws a patch request' } },
    summary: 'Ask for a patch; it appears on the issue when ready',
    description: 'Patch generation is asynchronous (field notes): the patch shows up on `svc issues get` later.',
    examples: [{ cmd: 'svc issues generate-patch iss_123', desc: 'Ask for a patch; it appears on the issue when ready' }],
    detail: {
      heading: 'Patch requested: it is generated in the background.',
      fields: [{ label: 'Issue', path: 'issueId' }],
      next: [{ text: 'See it on the issue when it is ready (a minute or two):', cmd: 'svc issues get {issueId}' }],
    },
  }),
  row('issues', 'approve-patch', {
    ...ISSUE_ACTION,
    effect: 'change', bulk: { done: 'patches approved', undo: { none: "the API has no call that withdraws an approval: close the pull request on the git host" } },
    summary: 'Approve the generated patch of an issue',
    response: () => record({ ok: optional(bool()), patchId: optional(str()), pullRequestStatus: optional(str()), prLink: optional(str()) }),
    description: 'The spec shows neither request nor response; { issueId, organizationId } is what public clients send, and { ok, patchId, pullRequestStatus, prLink } what they receive.',
    examples: [{ cmd: 'svc issues approve-patch iss_123', desc: 'Approve the generated patch of an issue' }],
    columns: ['patchId', 'pullRequestStatus', 'prLink'],
    detail: {
      heading: 'Patch approved.',
      fields: [
        { label: 'Issue', path: 'issueId' },
        { label: 'Patch', path: 'patchId' },
        { label: 'PR status', path: 'pullRequestStatus', show: 'status' },
        { label: 'PR', path: 'prLink' },
      ],
      next: [
        { when: 'prLink', text: 'Review and merge the pull request: {prLink}' },
        { text: 'See the issue with its patch:', cmd: 'svc issues get {issueId}' },
      ],
    },
  }),
  row('issues', 'update-severity', {
    effect: 'change', bulk: { done: 'updated', undo: { none: 'the record does not keep the severity before (svc issues get shows it): set it back with --severity' } },
    summary: 'Change the severity of an issue',
    description: "svc's levels (critical, high, medium, low, info: in tables, issues get and svc gate) come from the issue's 0-100 score, not from severity: this changes the severity field (0-10 in public clients), and the level svc shows stays what the score says. Search by severity with --severities-min/--severities-max. To keep svc gate from counting an issue, accept its risk: svc policy ignore.",
    positional: 'issueId', required: ['issueId', 'severity'],
    request: () => body({
      issueId: issueId('spec'),
      severity: field(num(), 'New severity (public clients use 0 to 10: field notes; the spec states no range, and svc sends any number)', 'spec', 'n'),
      organizationId: orgId(),
    }),
    response: okResponse, columns: ['ok'],
    detail: {
      whole: true, heading: 'Severity: {severity} for {issueId}', fields: [],
      next: [
        { text: 'The level svc shows comes from the score, which this does not change; see both:', cmd: 'svc issues get {issueId}' },
        { text: 'To keep svc gate from counting it (an accepted risk, with a reason and an expiry):', cmd: 'svc policy ignore {issueId} --reason "..." --expires 90d' },
      ],
    },
    examples: [{ cmd: 'svc issues update-severity iss_123 --severity 4', desc: 'Lower an issue to severity 4' }],
  }),
];
