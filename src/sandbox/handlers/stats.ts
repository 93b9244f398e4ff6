/** Stats: the 8 operations, computed from the current data (see ../stats.ts for the shapes). */
import type { HandlerContext, HandlerTable } from './handler-context.js';
import * as S from '../stats.js';
import { notFound } from '../http-error.js';

const P = '/api/v1/stats/';
const req = (c: HandlerContext) => c.body as S.StatsRequest;
const list = (c: HandlerContext) => S.statsIssues(c.store, c.orgRepos(), req(c));

export const statsHandlers: HandlerTable = {
  [P + 'securityPosture'](c) {
    // The date range picks the buckets of the series; every issue counts towards them.
    const { startDate: _s, endDate: _e, ...rest } = req(c);
    return S.securityPosture(S.statsIssues(c.store, c.orgRepos(), rest), c.orgRepos(), req(c), c.store.now());
  },
  [P + 'timeSaved']: (c) => {
    // Counted by when the patch or the triage happened, not when the issue was found.
    const { startDate: _s, endDate: _e, ...rest } = req(c);
    return S.timeSaved(S.statsIssues(c.store, c.orgRepos(), rest), req(c));
  },
  [P + 'issuesBySeverity']: (c) => S.issuesBySeverity(list(c)),
  [P + 'issuesByRepository']: (c) => S.issuesByRepository(list(c), c.orgRepos()),
  [P + 'issuesByAuthor']: (c) => S.issuesByAuthor(list(c)),
  [P + 'issuesByVulnClass']: (c) => S.issuesByVulnClass(list(c)),
  [P + 'topIssues']: (c) => S.topIssues(list(c), req(c)),
  [P + 'summary'](c) {
    const repos = c.orgRepos();
    const repositoryId = typeof c.body.repositoryId === 'string' ? c.body.repositoryId : undefined;
    const scanId = typeof c.body.scanId === 'string' ? c.body.scanId : undefined;
    if (repositoryId && !repos.has(repositoryId)) throw notFound(`repository '${repositoryId}' not found`);
    if (scanId && !(c.store.scan(scanId) && repos.has(c.store.scan(scanId)!.repositoryId))) throw notFound(`scan '${scanId}' not found`);
    return S.summary(c.store, repos, { repositoryId, scanId });
  },
};
