/**
 * State changes of issues and scans. The spec shows no transitions; these are the sandbox's choices
 * (listed in the README's sandbox section). Handlers resolve ids and call these.
 */
import type { IssueRec, RepoRec, ScanRec } from './model.js';
import type { Store } from './state.js';
import { badRequest } from './http-error.js';
import { newScan } from './data/seed.js';
import { hex, int, mix, mulberry32 } from './prng.js';

export const SANDBOX_ACTOR = 'sandbox-user@example.com';

function settle(store: Store, issue: IssueRec, status: IssueRec['status']): void {
  const now = store.now();
  issue.status = status;
  issue.updatedAt = now;
  issue.stateChangeAuthor = SANDBOX_ACTOR;
  store.changed({ issue });
}

/** archive: any status -> archived (idempotent); a reason given is kept in falsePositiveReason. */
export function archive(store: Store, issue: IssueRec, reason?: string): void {
  if (reason !== undefined) issue.falsePositiveReason = reason;
  if (issue.status === 'archived') {
    if (reason !== undefined) store.changed({ issue });
    return;
  }
  issue.archivedAt = store.now();
  settle(store, issue, 'archived');
}

/** unarchive: archived -> open; other statuses are left alone (idempotent). */
export function unarchive(store: Store, issue: IssueRec): void {
  if (issue.status !== 'archived') return;
  issue.archivedAt = null;
  settle(store, issue, 'open');
}

/** mark-false-positive: -> falsePositive, validated DISCONFIRMED. */
export function markFalsePositive(store: Store, issue: IssueRec, reason?: string): void {
  issue.validated = 'DISCONFIRMED';
  issue.falsePositiveReason = reason ?? issue.falsePositiveReason ?? 'Marked as a false positive';
  settle(store, issue, 'falsePositive');
}

/** mark-true-positive: validated CONFIRMED; a false positive (or not-exploitable) issue is open again. */
export function markTruePositive(store: Store, issue: IssueRec): void {
  issue.validated = 'CONFIRMED';
  issue.falsePositiveReason = null;
  const status = issue.status === 'falsePositive' || issue.status === 'notExploitable' ? 'open' : issue.status;
  settle(store, issue, status);
}

const NO_PATCH = new Set(['falsePositive', 'archived', 'closed', 'notExploitable']);

/** generate-patch: -> processing, and after `delayMs` a DRAFT patch appears and the issue is patched. */
export function generatePatch(store: Store, issue: IssueRec, delayMs: number): void {
  if (issue.unpatchable) throw badRequest(`issue ${issue.id} is marked unpatchable; no patch can be generated`);
  if (NO_PATCH.has(issue.status)) throw badRequest(`issue ${issue.id} is ${issue.status}; only open issues get patches`);
  if (issue._patchReadyAt !== undefined || issue.patch) return;
  settle(store, issue, 'processing');
  store.awaitPatch(issue, store.now() + Math.max(0, delayMs));
  store.tick();
}

/** approve-patch: the patch's pull request is opened (DRAFT -> OPEN) and the patch counts as validated. */
export function approvePatch(store: Store, issue: IssueRec, repo: RepoRec | undefined): void {
  const patch = issue.patch;
  if (!patch) {
    throw badRequest(`issue ${issue.id} has no patch${issue._patchReadyAt !== undefined ? ' yet (it is being generated)' : ''}; run generate-patch first`);
  }
  if (patch.pullRequestStatus !== 'DRAFT') return;
  const now = new Date(store.now()).toISOString();
  patch.pullRequestStatus = 'OPEN';
  patch.validated = 'CONFIRMED';
  patch.prLink = `${(repo?.url ?? 'https://sandbox.example/repo').replace(/\.git$/, '')}/pull/${(mix(store.seed, 23, issue.n) % 900) + 100}`;
  patch.updatedAt = now;
  issue.updatedAt = store.now();
  store.changed({ issue });
}

/** update-severity: a number from 0 to 10 (the community scale of the field notes). */
export function updateSeverity(store: Store, issue: IssueRec, severity: number): void {
  if (!Number.isFinite(severity) || severity < 0 || severity > 10) throw badRequest(`invalid field 'severity': must be a number from 0 to 10 (got ${severity})`);
  issue.severity = severity;
  issue.updatedAt = store.now();
  issue.stateChangeAuthor = SANDBOX_ACTOR;
  store.changed({ issue, reorder: true });
}

/** scans start: a running full scan that completes after `durationMs`, adding 1 to 3 open issues. */
export function startScan(store: Store, repo: RepoRec, durationMs: number): ScanRec {
  const id = store.nextId('scan');
  const r = mulberry32(mix(store.seed, 29, store.counters.scan));
  const now = store.now();
  const scan = newScan({ id, repo, type: 'FullScan', at: now, sha: hex(r, 40), prAuthor: null, prBranch: null });
  scan._finishAt = now + Math.max(0, durationMs);
  scan._newIssues = int(r, 1, 3);
  store.scans.push(scan);
  store.changed();
  return scan;
}
