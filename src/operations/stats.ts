import { z } from 'zod';
import { anyObject, body, field, isoDate, LEVELS, orgId, record, repoId } from './fields.js';
import { severityCounts } from './records.js';
import type { Operation } from './types.js';

const P = '/api/v1/stats/';

const dateRange = {
  organizationId: orgId(),
  projectId: field(z.string().min(1).optional(), 'Project id', 'spec', 'id'),
  startDate: field(isoDate.optional(), 'First day (YYYY-MM-DD)', 'spec', 'date'),
  endDate: field(isoDate.optional(), 'Last day (YYYY-MM-DD)', 'spec', 'date'),
};
const filters = {
  ...dateRange,
  severities: field(z.array(z.enum(LEVELS)).optional(), 'Only these severities', 'spec', 'levels'),
  vulnClasses: field(z.array(z.string().min(1)).optional(), 'Only these vulnerability classes', 'spec', 'classes'),
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
    request: body({ ...filters, timeGranularity: field(z.enum(['day', 'week', 'month']).optional(), 'Bucket size of the series') }),
    response: anyObject, rows: 'repositoryRiskScores', columns: ['id', 'criticalIssues', 'highIssues', 'mediumIssues', 'lowIssues'],
  }),
  stat('timeSaved', 'time-saved', 'Time saved by fixes', { request: body(dateRange), response: anyObject, columns: [] }),
  stat('issuesBySeverity', 'issues-by-severity', 'Issue counts by severity', {
    response: record({ severityCounts: severityCounts.nullish(), total: z.number().nullish() }),
    columns: ['severityCounts.critical', 'severityCounts.high', 'severityCounts.medium', 'severityCounts.low', 'severityCounts.info', 'total'],
  }),
  stat('issuesByRepository', 'issues-by-repository', 'Issue counts by repository', { response: anyObject, columns: [] }),
  stat('issuesByAuthor', 'issues-by-author', 'Issue counts by pull-request author', {
    response: z.array(record({
      prAuthor: z.string().nullish(), critical: z.number().nullish(), high: z.number().nullish(),
      medium: z.number().nullish(), low: z.number().nullish(), info: z.number().nullish(),
    })),
    columns: ['prAuthor', 'critical', 'high', 'medium', 'low', 'info'],
  }),
  stat('issuesByVulnClass', 'issues-by-vuln-class', 'Issue counts by vulnerability class', { response: anyObject, columns: [] }),
  stat('topIssues', 'top-issues', 'The highest-scoring open or patched issues', {
    request: body({ ...filters, type: field(z.enum(['open', 'patched']).optional(), 'Open or patched issues') }),
    response: z.array(record({
      id: z.string(), title: z.string().nullish(), vulnClass: z.string().nullish(), score: z.number().nullish(),
      cwes: z.array(z.string()).nullish(), status: z.string().nullish(),
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
      scanId: field(z.string().min(1).optional(), 'Scan id', 'spec', 'id'),
    }),
    response: record({
      scans: record({ fullScans: z.number().int().nullish(), prScans: z.number().int().nullish(), runningScans: z.number().int().nullish(), failedScans: z.number().int().nullish() }).nullish(),
      issues: record({ open: z.number().int().nullish(), patched: z.number().int().nullish(), falsePositive: z.number().int().nullish(), archived: z.number().int().nullish(), processing: z.number().int().nullish() }).nullish(),
      issuesByScore: severityCounts.nullish(),
    }),
    columns: [],
    examples: [
      { cmd: 'svc stats summary', desc: 'Scans and issues of the whole organization' },
      { cmd: 'svc stats summary --repository-id repo_123 -o json', desc: 'One repository, as JSON' },
    ],
  },
];
