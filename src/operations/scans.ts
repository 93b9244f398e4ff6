import { body, bool, field, id, int, list, okResponse, oneOf, optional, orgId, record, repoId, str } from './fields.js';
import { codeScan, scanSchedule } from './records.js';
import type { Operation } from './types.js';
import { row } from './row.js';
import { crontab, nextRuns, timeZone } from './schedule.js';


export const scans: Operation[] = [
  row('scans', 'get-schedule', {
    effect: 'read',
    summary: 'Show the scan schedule of a repository',
    positional: 'repositoryId', required: ['repositoryId'],
    request: () => body({ organizationId: orgId(), repositoryId: repoId() }),
    response: scanSchedule,
    columns: ['id', 'repoId', 'executionCriteriaCrontab', 'isEnabled', 'updatedAt'],
    detail: {
      fields: [
        { label: 'ID', path: 'id' },
        { label: 'Repository', path: 'repoId' },
        { label: 'Schedule', path: 'executionCriteriaCrontab' },
        { label: 'Time zone', path: 'timezone' },
        { label: 'Enabled', path: 'isEnabled' },
        { label: 'Created', path: 'createdAt', show: 'time' },
        { label: 'Updated', path: 'updatedAt', show: 'time' },
        { label: 'Scans', path: 'codeScans' },
      ],
      // The change starts from the schedule as it is, every flag kept (an upsert without --timezone
      // leaves the zone to the service): edit the one to change. The spec's record has no time zone
      // (answers seen do): without one, the command names none either, and svc refuses ZONE until
      // the zone the schedule runs in is given, rather than guess UTC and move the schedule.
      next: [
        { text: 'Change it (the schedule as it is; edit what to change):', cmd: 'svc scans upsert-schedule {repositoryId||repoId} --execution-criteria-crontab {executionCriteriaCrontab} --timezone {timezone} {isEnabled|--is-enabled}', when: 'timezone&executionCriteriaCrontab' },
        { text: 'Change it (the answer names no time zone: put the one it runs in for ZONE):', cmd: 'svc scans upsert-schedule {repositoryId||repoId} --execution-criteria-crontab {executionCriteriaCrontab} --timezone ZONE {isEnabled|--is-enabled}', when: '!timezone&executionCriteriaCrontab' },
      ],
    },
    examples: [{ cmd: 'svc scans get-schedule repo_123', desc: 'When repo_123 is scanned' }],
  }),
  row('scans', 'upsert-schedule', {
    effect: 'change',
    summary: 'Create or change the scan schedule of a repository',
    positional: 'repositoryId', required: ['repositoryId'],
    request: () => body({
      organizationId: orgId(),
      repositoryId: repoId(),
      executionCriteriaCrontab: field(crontab(), 'Crontab expression, 5 fields, e.g. "0 3 * * 1" (checked before sending)', 'spec', 'cron'),
      timezone: field(timeZone(), 'Timezone name, e.g. Europe/Berlin (checked before sending)', 'spec', 'tz'),
      isEnabled: field(bool(), 'Whether the schedule runs'),
    }),
    response: okResponse, columns: ['ok'],
    detail: {
      whole: true, heading: 'Scan schedule set for {repositoryName||repositoryId}',
      fields: [{ label: 'Schedule', path: 'executionCriteriaCrontab' }, { label: 'Time zone', path: 'timezone' }, { label: 'Enabled', path: 'isEnabled' }],
      next: [{ text: 'See it:', cmd: 'svc scans get-schedule {repositoryId}' }],
    },
    async explain(body) {
      if (typeof body.executionCriteriaCrontab !== 'string') return [];
      const zone = typeof body.timezone === 'string' ? body.timezone : undefined;
      return [`Next runs: ${nextRuns(body.executionCriteriaCrontab, zone).join(', ')}${zone ? '' : ' (no --timezone given: shown in UTC; the service decides the zone)'}`];
    },
    examples: [{ cmd: 'svc scans upsert-schedule repo_123 --execution-criteria-crontab "0 3 * * 1" --timezone Europe/Berlin --is-enabled', desc: 'Scan every Monday at 03:00 Berlin time' }],
  }),
  row('scans', 'start', {
    effect: 'change', source: 'notes',
    summary: 'Start a full scan of repositories (beyond the spec: seen in public clients)',
    description: 'With --wait, svc polls `scans list` for the scan until its status is completed or finished (done), or failed/error or it carries an errorMessage (failed: exit 1). Progress goes to stderr: a spinner on a terminal, a line per status change and a heartbeat every 30 s elsewhere.',
    required: ['repositoryIds'],
    request: () => body({
      organizationId: orgId('notes'),
      repositoryIds: field(list(id()), 'Repositories to scan (ids, names, owner/name or URLs)', 'notes', 'ids'),
    }),
    response: () => record({ scanId: optional(str()), id: optional(str()) }),
    columns: ['scanId'],
    // The scan's id as the answer names it: `scanId`, or `id` (field notes: some clients fall back to
    // it); a table of the `scanId` column alone showed an empty cell for `{ id }`.
    detail: {
      whole: true, heading: 'Scan started.',
      fields: [{ label: 'Scan', path: 'scanId' }, { label: 'Scan', path: 'id' }, { label: 'Repositories', path: 'repositoryIds' }],
      next: [
        { when: 'scanId', text: 'Follow it:', cmd: 'svc scans list --scan-id {scanId}' },
        { when: '!scanId&id', text: 'Follow it:', cmd: 'svc scans list --scan-id {id}' },
        { when: '!scanId&!id', text: 'The answer names no scan id; find it among the latest scans:', cmd: 'svc scans list --sort-by createdAt --sort-order desc' },
      ],
    },
    followUp: {
      step: 'scan-wait',
      options: [
        { flags: '--wait', description: 'Wait until the scan finishes (every scan started, one per repository where the answer lists them); print its id (-o json: its record; several: a list). Exit 1 if a scan fails' },
        { flags: '--poll-interval <seconds>', description: 'Seconds between status checks while waiting (default 10)' },
        { flags: '--wait-timeout <seconds>', description: 'Stop waiting after this many seconds, exit 6 (default 3600)' },
      ],
    },
    examples: [
      { cmd: 'svc scans start --repository-ids repo_123', desc: 'Start a scan of repo_123' },
      { cmd: 'svc scans start --repository-ids repo_123 --wait --wait-timeout 1800', desc: 'Start a scan and wait up to 30 minutes for it to finish' },
    ],
  }),
  row('scans', 'list', {
    effect: 'read', source: 'notes',
    summary: 'List scans with their status and issue counts (beyond the spec: seen in public clients)',
    description: 'A scan without `scanId` that names itself `id` is read by that (inference: the field notes say some clients fall back to `id` for the id of a started scan, as `scans start --wait` and the gate do): a table and CSV show it in the SCAN column, with a warning; JSON shows it as it came. A PR scan without `scanTargetBranch` shows the branch its pull request targets (`prTargetBranch`, field notes) in the BRANCH column, marked "(PR target)".',
    request: () => body({
      organizationId: orgId('notes'),
      page: field(int(1), 'Page number', 'notes', 'n'),
      pageSize: field(int(1), 'Scans per page', 'notes', 'n'),
      repositoryIds: field(list(id()), 'Only these repositories (ids, names, owner/name or URLs)', 'notes', 'ids'),
      scanId: field(id(), 'Only this scan', 'notes', 'id'),
      scanType: field(oneOf(['FullScan', 'PrScan', 'SCAScan']), 'Scan type', 'notes'),
      returnAll: field(bool(), 'Every match in one response', 'notes'),
      sortBy: field(oneOf(['createdAt', 'updatedAt']), 'Sort key', 'notes'),
      sortOrder: field(oneOf(['asc', 'desc']), 'Sort order', 'notes'),
    }),
    response: () => record({ codeScans: list(codeScan), totalCount: optional(int()) }),
    rows: 'codeScans',
    idAliases: ['id'],
    cellFallbacks: [{ path: 'scanTargetBranch', from: 'prTargetBranch', mark: ' (PR target)' }],
    columns: ['scanId', 'repositoryId', 'codeScanType', 'status', 'scanTargetBranch', 'issueCounts.open', 'createdAt'],
    pagination: { page: 'page', pageSize: 'pageSize', items: 'codeScans', total: 'totalCount', maxPageSize: 100,
      id: 'scanId', idAliases: ['id'], stableOrder: { sortBy: 'createdAt', sortOrder: 'asc' } },
    examples: [{ cmd: 'svc scans list --repository-ids repo_123 --sort-by createdAt --sort-order desc', desc: 'Latest scans of repo_123' }],
  }),
];
