/** Scans: schedules (spec), start and list (field notes). */
import type { HandlerContext, HandlerTable } from './handler-context.js';
import { publicView } from './handler-context.js';
import type { ScanRec } from '../model.js';
import { badRequest, notFound } from '../http-error.js';
import { startScan } from '../transitions.js';
import { zeroCounts } from '../state.js';

const P = '/api/v1/scans/';
const DEFAULT_SCAN_PAGE_SIZE = 10;

function scanView(c: HandlerContext, scan: ScanRec): Record<string, unknown> {
  const view = publicView(scan);
  delete view.organizationId;
  view.issueCounts = c.store.scanCounts().get(scan.scanId) ?? zeroCounts();
  return view;
}

export const scanHandlers: HandlerTable = {
  /** 404 when the repository has no schedule yet. */
  [P + 'get-schedule'](c) {
    const repo = c.repo(c.need('repositoryId'));
    const schedule = c.store.schedule(repo.id);
    if (!schedule) throw notFound(`repository '${repo.id}' has no scan schedule; create one with upsert-schedule`);
    return { ...schedule };
  },

  /** Creates the schedule (crontab required then; enabled by default) or changes the fields given. */
  [P + 'upsert-schedule'](c) {
    const repo = c.repo(c.need('repositoryId'));
    const { executionCriteriaCrontab: cron, timezone, isEnabled } = c.body as { executionCriteriaCrontab?: string; timezone?: string; isEnabled?: boolean };
    // The crontab and the time zone were checked by the row's schema (croner, Intl) in the router.
    const now = c.store.nowIso();
    let schedule = c.store.schedule(repo.id);
    if (!schedule) {
      if (cron === undefined) throw badRequest(`missing required field 'executionCriteriaCrontab' (the repository has no schedule yet)`);
      schedule = {
        id: c.store.nextId('schedule'), repoId: repo.id, executionCriteriaCrontab: cron, timezone: timezone ?? 'UTC', isEnabled: isEnabled ?? true,
        createdAt: now, updatedAt: now,
        codeScans: c.store.scans.filter((s) => s.repositoryId === repo.id && s.codeScanType === 'FullScan').map((s) => s.scanId), stagedCodeScans: [],
      };
      c.store.schedules.push(schedule);
    } else {
      if (cron !== undefined) schedule.executionCriteriaCrontab = cron.trim();
      if (timezone !== undefined) schedule.timezone = timezone;
      if (isEnabled !== undefined) schedule.isEnabled = isEnabled;
      schedule.updatedAt = now;
    }
    c.store.changed();
    return { ok: true };
  },

  /** `{ organizationId, repositoryIds }` -> `{ scanId, scanIds }`: one full scan per repository. */
  [P + 'start'](c) {
    const ids = c.body.repositoryIds;
    if (!Array.isArray(ids) || ids.length === 0) throw badRequest(`missing required field 'repositoryIds'`);
    const repos = (ids as string[]).map((id) => c.repo(id));
    const scans = repos.map((repo) => startScan(c.store, repo, c.timing.scanDurationMs));
    return { scanId: scans[0].scanId, scanIds: scans.map((s) => s.scanId) };
  },

  /** `{ codeScans, totalCount }`, newest first by default, 10 a page. */
  [P + 'list'](c) {
    const b = c.body as { repositoryIds?: string[]; scanId?: string; scanType?: string; returnAll?: boolean; sortBy?: 'createdAt' | 'updatedAt'; sortOrder?: 'asc' | 'desc'; page?: number; pageSize?: number };
    const repos = c.orgRepos();
    const repoIds = b.repositoryIds?.length ? new Set(b.repositoryIds) : undefined;
    const key = b.sortBy ?? 'createdAt';
    const dir = b.sortOrder === 'asc' ? 1 : -1;
    const all = c.store.scans
      .filter((s) => repos.has(s.repositoryId) && (!repoIds || repoIds.has(s.repositoryId)) && (!b.scanId || s.scanId === b.scanId)
        && (!b.scanType || s.codeScanType === b.scanType))
      .sort((x, y) => (x[key] < y[key] ? -1 : x[key] > y[key] ? 1 : 0) * dir || (x.scanId < y.scanId ? -1 : 1));
    const page = b.page ?? 1;
    const size = b.pageSize ?? DEFAULT_SCAN_PAGE_SIZE;
    const shown = b.returnAll ? all : all.slice((page - 1) * size, page * size);
    return { codeScans: shown.map((s) => scanView(c, s)), totalCount: all.length };
  },
};
