import { anyObject, body, field, id, int, isoDate, LEVELS, list, num, oneOf, optional, orgId, record, repoId, str } from './fields.js';
import { severityCounts } from './records.js';
import type { Operation } from './types.js';

const P = '/api/v1/stats/';

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

function stat(name: string, command: string, summary: string, extra: Partial<Operation> & Pick<Operation, 'response' | 'columns'>): Operation {
  return {
    group: 'stats', name, path: P + name, source: 'spec', safe: true, summary,
    request: body(filters),
    examples: [{ cmd: `svc stats ${command} --start-date 2026-01-01 --end-date 2026-03-31`, desc: `${summary}, first quarter of 2026` }],
    ...extra,
  };
}

export const stats: Operation[] = [
  stat('securityPosture', 'security-posture', 'Security posture over time', {
    request: body({ ...filters, timeGranularity: field(oneOf(['day', 'week', 'month']), 'Bucket size of the series') }),
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
        { label: 'Open issues over time', path: 'series', show: 'table', columns: ['date', 'critical', 'high', 'medium', 'low', 'info', 'total'] },
        { label: 'Repositories by risk', path: 'repositoryRiskScores', show: 'table', columns: ['id', 'name', 'riskScore', 'criticalIssues', 'highIssues', 'mediumIssues', 'lowIssues'] },
      ],
    },
  }),
  stat('timeSaved', 'time-saved', 'Time saved by fixes', { request: body(dateRange), response: anyObject, columns: [] }),
  stat('issuesBySeverity', 'issues-by-severity', 'Issue counts by severity', {
    response: record({ severityCounts: optional(severityCounts), total: optional(num()) }),
    columns: ['severityCounts.critical', 'severityCounts.high', 'severityCounts.medium', 'severityCounts.low', 'severityCounts.info', 'total'],
  }),
  stat('issuesByRepository', 'issues-by-repository', 'Issue counts by repository', { response: anyObject, columns: [] }),
  stat('issuesByAuthor', 'issues-by-author', 'Issue counts by pull-request author', {
    response: list(record({
      prAuthor: optional(str()), critical: optional(num()), high: optional(num()),
      medium: optional(num()), low: optional(num()), info: optional(num()),
    })),
    columns: ['prAuthor', 'critical', 'high', 'medium', 'low', 'info'],
  }),
  stat('issuesByVulnClass', 'issues-by-vuln-class', 'Issue counts by vulnerability class', { response: anyObject, columns: [] }),
  stat('topIssues', 'top-issues', 'The highest-scoring open or patched issues', {
    request: body({ ...filters, type: field(oneOf(['open', 'patched']), 'Open or patched issues') }),
    response: list(record({
      id: str(), title: optional(str()), vulnClass: optional(str()), score: optional(num()),
      cwes: optional(list(str())), status: optional(str()),
    })),
    columns: ['id', 'score', 'status', 'vulnClass', 'title'],
    examples: [{ cmd: 'svc stats top-issues --type open --severities critical,high', desc: 'The top open critical and high issues' }],
  }),
  {
    group: 'stats', name: 'summary', path: P + 'summary', source: 'spec', safe: true,
    summary: 'Counts of scans and issues, optionally for one repository or scan',
    request: body({
      organizationId: orgId(),
      repositoryId: repoId(),
      scanId: field(id(), 'Scan id', 'spec', 'id'),
    }),
    response: record({
      scans: optional(record({ fullScans: optional(int()), prScans: optional(int()), runningScans: optional(int()), failedScans: optional(int()) })),
      issues: optional(record({ open: optional(int()), patched: optional(int()), falsePositive: optional(int()), archived: optional(int()), processing: optional(int()) })),
      issuesByScore: optional(severityCounts),
    }),
    columns: [],
    examples: [
      { cmd: 'svc stats summary', desc: 'Scans and issues of the whole organization' },
      { cmd: 'svc stats summary --repository-id repo_123 -o json', desc: 'One repository, as JSON' },
    ],
  },
];
