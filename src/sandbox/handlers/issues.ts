/** Issues: search, get, and the actions that change an issue's state (see ../transitions.ts). */
import type { HandlerContext, HandlerTable } from './handler-context.js';
import type { IssueRec } from '../model.js';
import type { Store } from '../state.js';
import { expandIssue } from '../data/issue-text.js';
import { searchIssues, sortedIssues, type SearchRequest } from '../search.js';
import * as T from '../transitions.js';
import { badRequest } from '../http-error.js';
import { RawJson } from '../raw-json.js';

const P = '/api/v1/issues/';

function issueView(store: Store, issue: IssueRec): Record<string, unknown> {
  return expandIssue(store.seed, issue, store.repo(issue.repositoryId), store.scan(issue.scanId));
}

/**
 * An issue's JSON as a search answers it, made once and kept until the store changes (any change:
 * a renamed repository changes every issue's view). Pages of `--all` then cost a copy of bytes
 * instead of ~10 µs of expanding and serializing per issue; a 100,000-issue sandbox keeps ~180 MB of them.
 */
const issueTexts = new WeakMap<IssueRec, { version: number; json: RawJson }>();
function issueJson(store: Store, issue: IssueRec): RawJson {
  const hit = issueTexts.get(issue);
  if (hit && hit.version === store.version) return hit.json;
  const json = new RawJson(Buffer.from(JSON.stringify(issueView(store, issue))));
  issueTexts.set(issue, { version: store.version, json });
  return json;
}

/**
 * Makes every issue's JSON after start-up, a slice at a time between requests, so that the pages of
 * the first listing are copies too, then sorts the issues in the two orders clients ask for most
 * (createdAt ascending, which `--all` and the gate use, and the default, score descending), so that
 * the first page of a listing is not also the sort of every issue, nor a pass over them. Stops at a change (the next
 * searches make what they need) or at stop().
 */
export function warmIssueJson(store: Store): { /** Every issue made, or a change or stop() ended it. */ readonly done: boolean; stop(): void } {
  const version = store.version;
  let next = 0;
  let done = false;
  let pending: NodeJS.Immediate | undefined;
  const state = {
    get done() { return done; },
    stop() { done = true; if (pending) clearImmediate(pending); },
  };
  const step = () => {
    pending = undefined;
    if (done || store.version !== version) { done = true; return; }
    const end = Math.min(next + 200, store.issues.length);
    for (; next < end; next++) issueJson(store, store.issues[next]);
    if (next < store.issues.length) {
      (pending = setImmediate(step)).unref();
      return;
    }
    sortedIssues(store, 'createdAt', 'asc');
    sortedIssues(store, 'score', 'desc');
    // ... and finds each organization's issues in the order of `--all` and the gate, so that the
    // first page of such a listing is a slice too (a search caches its matches until a change).
    for (const org of store.orgs) searchIssues(store, store.orgRepos(org.id), { sortBy: 'createdAt', sortOrder: 'asc', pageSize: 1 });
    done = true;
  };
  (pending = setImmediate(step)).unref();
  return state;
}

const action = (fn: (c: HandlerContext, issue: IssueRec) => void) => (c: HandlerContext) => {
  fn(c, c.issue());
  return { ok: true };
};

/** The reason of a false positive or an archive: `falsePositiveReason` (the Issue record's field), or `reason`. */
function reasonOf(c: HandlerContext): string | undefined {
  const r = c.body.falsePositiveReason ?? c.body.reason;
  if (r !== undefined && typeof r !== 'string') throw badRequest(`invalid field 'falsePositiveReason': must be a string`);
  return r;
}

export const issueHandlers: HandlerTable = {
  [P + 'search'](c) {
    const result = searchIssues(c.store, c.orgRepos(), c.body as SearchRequest);
    return { ...result, issues: result.issues.map((i) => issueJson(c.store, i)) };
  },
  [P + 'get']: (c) => issueView(c.store, c.issue()),
  [P + 'archive']: action((c, i) => T.archive(c.store, i, reasonOf(c))),
  [P + 'unarchive']: action((c, i) => T.unarchive(c.store, i)),
  [P + 'mark-true-positive']: action((c, i) => T.markTruePositive(c.store, i)),
  [P + 'mark-false-positive']: action((c, i) => T.markFalsePositive(c.store, i, reasonOf(c))),
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
