/**
 * `--commit SHA`: which issues the gate counts.
 *
 * - `scans list` names the scan of the commit (head-scan.ts, an inferred field): what that scan
 *   found, by the search's `scanId`.
 * - Otherwise the issues show it (commit-scan.ts): the open issues whose `codeScan` names the commit
 *   give the scans of it. Once every one of those scans is found and has ended, the gate counts what
 *   the service lists for them by `scanId`, as above: an issue the scan found again names the scan
 *   that first found it (the spec does not say which scan `codeScan` names), so the issues naming
 *   the commit can be fewer than the scan's findings. Where the scans' listing does not hold every
 *   issue that names the commit (another reading of `codeScan`: the scan that last found it), both
 *   are issues of the commit: a FAIL of either stands, and two passes hold when every --max threshold
 *   holds for the two counts added together; otherwise no PASS (`commit-scan-short`).
 */
import type { Context } from '../../context.js';
import type { Thresholds } from '../../gate/policy.js';
import type { GateVerdict, VerifiedScope } from '../../gate/verdict.js';
import type { WaitSettings } from '../../scans/wait.js';
import { countIssues, type CountOptions } from './count.js';
import { verifyCommitScanned } from './commit-scan.js';
import { findCommitScan, judgeScans } from './head-scan.js';
import type { ScopeRepositories } from './scope-repositories.js';
import type { GateSetup } from './setup.js';
import type { SpillStore } from './spill.js';

type Counted = Omit<GateVerdict, 'verified'>;

interface CommitCount {
  wait?: WaitSettings;
  repositories?: ScopeRepositories;
  /** A store for a second count (the first one's keeps its issues). */
  freshStore: () => SpillStore;
}

/** Counts the scope's issues (count.ts), of the commit's scans with --commit; sets `verified.commit`. */
export async function countForCommit(ctx: Context, scope: Record<string, unknown>, options: Thresholds, setup: GateSetup, o: CountOptions, verified: VerifiedScope, c: CommitCount): Promise<Counted> {
  const sha = setup.sieve.commit;
  const unsieved: GateSetup = { ...setup, sieve: { ...setup.sieve, commit: undefined } };
  const head = sha !== undefined && scope.scanId === undefined ? await findCommitScan(ctx, scope, sha, { wait: c.wait, ci: setup.ci, repositories: c.repositories }) : undefined;
  if (head) {
    verified.commit = head;
    return countIssues(ctx, scope, options, unsieved, { ...o, scanIds: judgeScans(scope, head) });
  }
  const counted = await countIssues(ctx, scope, options, setup, o);
  if (sha === undefined) return counted;
  // No verdict unless the issues show a finished scan of that commit (4, 8, 1, 7).
  const byIssues = await verifyCommitScanned(ctx, scope, sha, counted.sifted?.commitScans, c.repositories, !counted.result.passed);
  verified.commit = byIssues.commit;
  if (byIssues.judge === undefined || byIssues.judge.length === 0 || scope.scanId !== undefined) return counted;
  const judged = { ...scope, ...(byIssues.judge.length === 1 ? { scanId: byIssues.judge[0] } : {}) };
  const listed = new Set<string>();
  const recounted = await countIssues(ctx, judged, options, unsieved, { ...o, store: c.freshStore(), scanIds: byIssues.judge.length > 1 ? byIssues.judge : undefined, listedIds: listed });
  const named = counted.sifted?.commitScans?.issues ?? [];
  const missing = named.filter((id) => !listed.has(id));
  if (missing.length === 0) {
    // The scans' listing holds every issue that names the commit, and those found again: it decides.
    if (byIssues.judge.length === 1) scope.scanId = byIssues.judge[0];
    return recounted;
  }
  // Both are issues of the commit's scans, as two readings of `codeScan` have them (the scan that last
  // found an issue, or the first): a FAIL of either stands; two passes hold, as their union does, when
  // every count threshold holds for both counts added together.
  if (!counted.result.passed) return counted;
  if (!recounted.result.passed) return recounted;
  if (!unionHolds(counted, recounted)) {
    ctx.doubts.add('commit-scan-short', 'gate', `${missing.length} open ${missing.length === 1 ? 'issue names' : 'issues name'} commit ${sha} that the service does not list for its ${byIssues.judge.length === 1 ? 'scan' : 'scans'} (${byIssues.judge.join(', ')}; first: ${missing[0]}), so the issues of the commit are more than either listing holds, and together they could break a --max threshold`, 'check the service version; try again with --verbose');
    return counted;
  }
  ctx.warn(`gate: ${missing.length} open ${missing.length === 1 ? 'issue names' : 'issues name'} commit ${sha} that the service does not list for its ${byIssues.judge.length === 1 ? 'scan' : 'scans'} (${byIssues.judge.join(', ')}): both listings pass, and so do their counts added together`);
  return counted;
}

/** Whether every --max threshold holds for the two counts added together (their union holds no more). */
function unionHolds(a: Counted, b: Counted): boolean {
  const max = a.result.thresholds.max as Record<string, number | undefined>;
  const counts = (r: Counted) => r.result.counts as Record<string, number>;
  return Object.entries(max).every(([key, n]) => n === undefined || (counts(a)[key] ?? 0) + (counts(b)[key] ?? 0) <= n);
}
