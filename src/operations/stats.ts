import { anyObject, body, field, id, int, isoDate, list, num, oneOf, optional, orgId, record, repoId, str } from './fields.js';
import { severityCounts } from './records.js';
import { LEVELS } from './levels.js';
import type { Operation } from './types.js';
import { row } from './row.js';


const dateRange = {
  organizationId: orgId(),
  projectId: field(id(), 'Project id', 'spec', 'id'),
  startDate: field(isoDate(), 'First day (YYYY-MM-DD)', 'spec', 'date'),
  endDate: field(isoDate(), 'Last day (YYYY-MM-DD)', 'spec', 'date'),
};
const filters = {
  ...dateRange,
  severities: field(list(oneOf(LEVELS)), 'Only these severities', 'spec', 'levels'),
  vulnClasses: field(list(id()), 'Only these vulnerability classes', 'spec', 'classes'),
};

export const stats: Operation[] = [
  row('stats', 'securityPosture', {
    effect: 'read',
    summary: 'Security posture over time',
    examples: [{ cmd: 'svc stats security-posture --start-date 2026-01-01 --end-date 2026-03-31', desc: 'Security posture over time, first quarter of 2026' }],
    request: () => body({ ...filters, timeGranularity: field(oneOf(['day', 'week', 'month']), 'Bucket size of the series') }),
    response: anyObject, rows: 'repositoryRiskScores', columns: ['id', 'criticalIssues', 'highIssues', 'mediumIssues', 'lowIssues'],
    detail: {
      whole: true,
      heading: 'Security posture',
      fields: [
        { label: 'Buckets', path: 'timeGranularity' },
        { label: 'Oldest critical', path: 'exposure.oldestCriticalAge', show: 'days' },
        { label: 'Oldest high', path: 'exposure.oldestHighAge', show: 'days' },
        { label: 'Oldest medium', path: 'exposure.oldestMediumAge', show: 'days' },
        { label: 'Oldest low', path: 'exposure.oldestLowAge', show: 'days' },
      ],
      sections: [
        { label: 'Open issues over time', path: 'series', show: 'chart' },
        { label: 'Repositories by risk', path: 'repositoryRiskScores', show: 'table', columns: ['id', 'name', 'riskScore', 'criticalIssues', 'highIssues', 'mediumIssues', 'lowIssues'] },
      ],
    },
  }),
  row('stats', 'timeSaved', {
    effect: 'read',
    summary: 'Time saved by fixes',
    examples: [{ cmd: 'svc stats time-saved --start-date 2026-01-01 --end-date 2026-03-31', desc: 'Time saved by fixes, first quarter of 2026' }],
    request: () => body(dateRange), response: anyObject, columns: [],
  }),
  row('stats', 'issuesBySeverity', {
    effect: 'read',
    summary: 'Issue counts by severity',
    request: () => body(filters),
    examples: [{ cmd: 'svc stats issues-by-severity --start-date 2026-01-01 --end-date 2026-03-31', desc: 'Issue counts by severity, first quarter of 2026' }],
    response: () => record({ severityCounts: optional(severityCounts), total: optional(num()) }),
    columns: ['severityCounts.critical', 'severityCounts.high', 'severityCounts.medium', 'severityCounts.low', 'severityCounts.info', 'total'],
    detail: {
      heading: 'Open issues by level',
      fields: [{ label: 'Total', path: 'total' }],
      sections: [{ label: 'By level', path: 'severityCounts', show: 'bars' }],
    },
  }),
  row('stats', 'issuesByRepository', {
    effect: 'read',
    summary: 'Issue counts by repository',
    request: () => body(filters),
    examples: [{ cmd: 'svc stats issues-by-repository --start-date 2026-01-01 --end-date 2026-03-31', desc: 'Issue counts by repository, first quarter of 2026' }],
    response: anyObject, columns: [],
    detail: {
      whole: true,
      heading: 'Open issues by repository',
      fields: [{ label: 'Total', path: 'total' }],
      sections: [{ label: 'By repository and level', path: 'repositories', show: 'bars', keys: ['repositoryName', 'name', 'repositoryId', 'id'] }],
      next: [{ text: 'Every count, by repository and level', cmd: 'svc stats issues-by-repository -o csv', when: 'repositories' }],
    },
  }),
  row('stats', 'issuesByAuthor', {
    effect: 'read',
    summary: 'Issue counts by pull-request author',
    request: () => body(filters),
    examples: [{ cmd: 'svc stats issues-by-author --start-date 2026-01-01 --end-date 2026-03-31', desc: 'Issue counts by pull-request author, first quarter of 2026' }],
    response: list(record({
      prAuthor: optional(str()), critical: optional(num()), high: optional(num()),
      medium: optional(num()), low: optional(num()), info: optional(num()),
    })),
    columns: ['prAuthor', 'critical', 'high', 'medium', 'low', 'info'],
  }),
  row('stats', 'issuesByVulnClass', {
    effect: 'read',
    summary: 'Issue counts by vulnerability class',
    request: () => body(filters),
    examples: [{ cmd: 'svc stats issues-by-vuln-class --start-date 2026-01-01 --end-date 2026-03-31', desc: 'Issue counts by vulnerability class, first quarter of 2026' }],
    response: anyObject, columns: [],
  }),
  row('stats', 'topIssues', {
    effect: 'read',
    summary: 'The highest-scoring open or patched issues',
    request: () => body({ ...filters, type: field(oneOf(['open', 'patched']), 'Open or patched issues') }),
    response: list(record({
      id: str(), title: optional(str()), vulnClass: optional(str()), score: optional(num()),
      cwes: optional(list(str())), status: optional(str()),
    })),
    columns: ['id', 'level', 'score', 'status', 'vulnClass', 'title'],
    localLimit: { orderBy: 'score' },
    examples: [
      { cmd: 'svc stats top-issues --type open --severities critical,high', desc: 'The top open critical and high issues' },
      { cmd: 'svc stats top-issues --limit 3', desc: 'The three highest-scoring open issues' },
    ],
  }),
  row('stats', 'summary', {
    effect: 'read',
    summary: 'Counts of scans and issues, optionally for one repository or scan',
    request: () => body({
      organizationId: orgId(),
      repositoryId: repoId(),
      scanId: field(id(), 'Scan id', 'spec', 'id'),
    }),
    response: () => record({
      scans: optional(record({ fullScans: optional(int()), prScans: optional(int()), runningScans: optional(int()), failedScans: optional(int()) })),
      issues: optional(record({ open: optional(int()), patched: optional(int()), falsePositive: optional(int()), archived: optional(int()), processing: optional(int()) })),
      issuesByScore: optional(severityCounts),
    }),
    columns: [],
    detail: {
      heading: 'Summary',
      fields: [],
      sections: [
        { label: 'Scans', path: 'scans', show: 'bars' },
        { label: 'Issues by status', path: 'issues', show: 'bars' },
        { label: 'Issues by level', path: 'issuesByScore', show: 'bars' },
      ],
    },
    examples: [
      { cmd: 'svc stats summary', desc: 'Scans and issues of the whole organization' },
      { cmd: 'svc stats summary --repository-id repo_123 -o json', desc: 'One repository, as JSON' },
    ],
  }),
];
