/** Issues: search, get, and the actions that change an issue's state (see ../transitions.ts). */
import type { HandlerContext, HandlerTable } from './context.js';
import type { IssueRec } from '../model.js';
import { expandIssue } from '../data/issue-text.js';
import { searchIssues, type SearchRequest } from '../search.js';
import * as T from '../transitions.js';
import { badRequest } from '../errors.js';

const P = '/api/v1/issues/';

export function issueView(c: HandlerContext, issue: IssueRec): Record<string, unknown> {
  return expandIssue(c.store.seed, issue, c.store.repo(issue.repositoryId), c.store.scan(issue.scanId));
}

const action = (fn: (c: HandlerContext, issue: IssueRec) => void) => (c: HandlerContext) => {
  fn(c, c.issue());
  return { ok: true };
};

export const issueHandlers: HandlerTable = {
  [P + 'search'](c) {
    const result = searchIssues(c.store, c.orgRepos(), c.body as SearchRequest);
    return { ...result, issues: result.issues.map((i) => issueView(c, i)) };
  },
  [P + 'get']: (c) => issueView(c, c.issue()),
  [P + 'archive']: action((c, i) => T.archive(c.store, i)),
  [P + 'unarchive']: action((c, i) => T.unarchive(c.store, i)),
  [P + 'mark-true-positive']: action((c, i) => T.markTruePositive(c.store, i)),
  [P + 'mark-false-positive']: action((c, i) => T.markFalsePositive(c.store, i, typeof c.body.reason === 'string' ? c.body.reason : undefined)),
  [P + 'generate-patch']: action((c, i) => T.generatePatch(c.store, i, c.timing.patchDelayMs)),
  /** Response not shown by the spec: `{ ok, patchId, pullRequestStatus, prLink }`. */
  [P + 'approve-patch'](c) {
    const issue = c.issue();
    T.approvePatch(c.store, issue, c.store.repo(issue.repositoryId));
    return { ok: true, patchId: issue.patch!.id, pullRequestStatus: issue.patch!.pullRequestStatus, prLink: issue.patch!.prLink };
  },
  [P + 'update-severity'](c) {
    const issue = c.issue();
    if (typeof c.body.severity !== 'number') throw badRequest(`missing required field 'severity'`);
    T.updateSeverity(c.store, issue, c.body.severity as number);
    return { ok: true };
  },
};
