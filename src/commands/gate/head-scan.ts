/**
 * `--commit SHA|auto` (with `--wait`): the service's scan of that commit, found in `scans list`, so the
 * gate judges what that scan found. On a pull request that is the service's own PR scan of the head
 * (`--commit auto` names the head: ci/review-commit.ts): a pull request that adds a vulnerability fails
 * once its scan lists it, and a clean scan of the head passes.
 *
 * What is stated and what is inferred. The field notes give a `scans list` item `scanId`, `repositoryId`,
 * `status`, `codeScanType` (FullScan, PrScan), `scanTargetBranch`, `prTargetBranch` and the finished
 * flags, and no commit. The spec's Issue record names its scan's commit as `codeScan.scanTargetBranchCommitSha`;
 * svc INFERS that a scan item carries its commit under that name, or as `commitSha`. So:
 *
 * | scans list shows                                     | the gate                                       |
 * |------------------------------------------------------|------------------------------------------------|
 * | a finished scan of the commit                        | counts the open issues of that scan (scanId);  |
 * |                                                      | one per repository holding the commit (each    |
 * |                                                      | one's newest finished), all of them read; a    |
 * |                                                      | scan that names no repository: on its own      |
 * | a scan of another type than --code-scan-types        | not a scan of the scope (its issues are not    |
 * |                                                      | listed): as none                               |
 * | a scan of the commit still running                   | --wait: waits for it; else exit 8              |
 * | scans of the commit that all failed                  | exit 1, the scan's message                     |
 * | no scan of the commit yet, scans that carry commits  | --wait: polls until one appears (exit 8 at     |
 * |                                                      | --wait-timeout); else exit 4 (not scanned yet) |
 * | no item carrying a commit (the inference fails)      | the issue evidence (commit-scan.ts): issues    |
 * |                                                      | naming the commit, their scans' states; with   |
 * |                                                      | --wait, first until no scan of the scope runs  |
 *
 * In a pull request build with no scan of the head, a repository whose record says
 * `isPrScanningEnabled: false` gets no PR scan at all: exit 4 naming `svc repos set-pr-scanning`
 * (never a wait that cannot end).
 */
import type { Context } from '../../context.js';
import { CliError, InterruptedError } from '../../core/errors.js';
import { EXIT } from '../../core/exit-codes.js';
import { escapeControls } from '../../core/sanitize.js';
import type { CiInfo } from '../../ci/detect.js';
import { callRow } from '../../http/row-call.js';
import { rowOf } from '../../operations/index.js';
import { itemsOf } from '../../answers/item-scope.js';
import { sameCommit } from '../../gate/since.js';
import { WaitTimeoutError, reportScan, scanState, waitForScan, type WaitSettings } from '../../scans/wait.js';
import { duration } from '../../terminal/progress.js';
import type { VerifiedCommit } from '../../gate/verdict.js';
import { inScopeScan, type ScopeRepositories } from './scope-repositories.js';

/** Fields of a scans list item that svc reads as the scan's commit (an inference: see above). */
const COMMIT_FIELDS = ['scanTargetBranchCommitSha', 'commitSha'] as const;
/** The newest scans looked at on each poll. */
const RECENT = 50;

type Item = Record<string, unknown>;

/** The commit a scan item names under an inferred field, lower case; undefined: none. */
function scanCommitOf(item: Item): string | undefined {
  for (const key of COMMIT_FIELDS) {
    const v = item[key];
    if (typeof v === 'string' && /^[0-9a-f]{7,64}$/i.test(v.trim())) return v.trim().toLowerCase();
  }
  return undefined;
}

/** ` of type PrScan` when --code-scan-types narrows the scans looked for. */
const ofTypes = (scope: Record<string, unknown>) => (Array.isArray(scope.codeScanTypes) ? ` of type ${scope.codeScanTypes.map(String).join(' or ')} (--code-scan-types)` : '');
const idOf = (item: Item) => String(item.scanId ?? item.id ?? '');
const q = (s: string) => `'${escapeControls(s)}'`;

interface Found {
  /** Scans of the commit (newest first), and whether any listed item carries a commit at all. */
  ofCommit: Item[];
  anyCommit: boolean;
  /** Scans of the scope that are queued or running. */
  running: number;
}

/** The newest scans of the scope, read through the row (its answer checked as every listing's). */
async function look(ctx: Context, scope: Record<string, unknown>, sha: string, repositories: ScopeRepositories | undefined): Promise<Found> {
  const list = await rowOf('scans', 'list');
  const body: Record<string, unknown> = { page: 1, pageSize: RECENT, sortBy: 'createdAt', sortOrder: 'desc' };
  if (typeof scope.organizationId === 'string') body.organizationId = scope.organizationId;
  if (Array.isArray(scope.repositoryIds)) body.repositoryIds = scope.repositoryIds;
  const what = 'gate: --commit: scans list';
  const data = await callRow(await ctx.client(), list, body, { what });
  // Items of other repositories (a filter ignored) are left out below: they prove nothing of this commit.
  const items = itemsOf(data, 'codeScans', what, ctx.doubts.report).filter((x): x is Item => x !== null && typeof x === 'object' && !Array.isArray(x));
  const wanted = Array.isArray(scope.repositoryIds) ? new Set(scope.repositoryIds.map(String)) : undefined;
  const inScope = items.filter((x) => !wanted || wanted.has(String(x.repositoryId)));
  // --code-scan-types: a scan of another type shown is none of the scope's (its issues are not listed).
  const types = Array.isArray(scope.codeScanTypes) ? new Set(scope.codeScanTypes.map(String)) : undefined;
  const ofType = (x: Item) => !types || typeof x.codeScanType !== 'string' || types.has(x.codeScanType);
  // A scan of the commit of a repository outside the scope's list is reported (no PASS) and not judged.
  const ofCommit = inScope.filter((x) => { const c = scanCommitOf(x); return c !== undefined && sameCommit(c, sha) && ofType(x) && (!repositories || inScopeScan(repositories, idOf(x), x, ctx.doubts)); });
  return { ofCommit, anyCommit: items.some((x) => scanCommitOf(x) !== undefined), running: inScope.filter((x) => scanState(x) === 'running').length };
}

/** In a pull request build: the repository's record says PR scanning is off (exit 4, naming the setter). */
async function prScanningOff(ctx: Context, scope: Record<string, unknown>, ci: CiInfo | undefined, sha: string): Promise<void> {
  if (!ci?.pullRequest && !ci?.headRef) return;
  const ids = Array.isArray(scope.repositoryIds) ? scope.repositoryIds.map(String) : [];
  if (ids.length !== 1) return;
  const list = await rowOf('repos', 'list');
  const body: Record<string, unknown> = { getCounts: false };
  if (typeof scope.organizationId === 'string') body.organizationId = scope.organizationId;
  const records = await callRow(await ctx.client(), list, body, { what: 'gate: --commit: repos list' }) as Item[];
  const repo = records.find((r) => r !== null && typeof r === 'object' && String(r.id) === ids[0]);
  if (repo?.isPrScanningEnabled !== false) return;
  throw new CliError(
    `gate: PR scanning is off for repository ${q(ids[0])} (its record says isPrScanningEnabled: false), so the service does not scan this pull request and commit ${sha} has no scan to judge`,
    EXIT.NOT_FOUND,
    `turn it on: svc repos set-pr-scanning ${ids[0]} --is-pr-scanning-enabled (then push again, or re-run once the service has scanned the head); or gate the repository without --commit`,
  );
}

/**
 * The finished scan of `sha` the gate then counts (its scanId becomes the search scope), or undefined
 * when scans list shows no commits (the issue evidence decides then: commit-scan.ts). Throws 8 (a scan
 * of the commit still running, or none yet, without --wait or past --wait-timeout), 1 (all failed),
 * 4 (PR scanning off), 7 (an answer that contradicts the scope).
 */
export async function findCommitScan(ctx: Context, scope: Record<string, unknown>, sha: string, o: { wait?: WaitSettings; ci?: CiInfo; repositories?: ScopeRepositories }): Promise<VerifiedCommit | undefined> {
  const started = ctx.now();
  let said = false;
  for (;;) {
    const found = await look(ctx, scope, sha, o.repositories);
    // Each repository with a scan of the commit gets its newest finished one judged (several
    // repositories can hold one commit: a fork, a repository linked twice); one whose scans of it
    // are all still running is waited for, never left out because another repository's has finished.
    // A scan that names no repository may be another repository's than the next one's: it is a group
    // of its own (judged, or waited for), never left unread behind another scan of the commit.
    const byRepository = new Map<string, Item[]>();
    for (const x of found.ofCommit) {
      const repo = x.repositoryId;
      const key = typeof repo === 'string' || typeof repo === 'number' ? `repository ${String(repo)}` : `scan ${idOf(x)}`;
      byRepository.set(key, [...(byRepository.get(key) ?? []), x]);
    }
    const judged: Item[] = [];
    let running: Item | undefined;
    for (const scans of byRepository.values()) {
      const done = scans.filter((x) => reportScan(x, `gate: scan ${q(idOf(x))}`, ctx.doubts.report) === 'done');
      if (done.length > 0) judged.push(done[0]);
      else running ??= scans.find((x) => scanState(x) === 'running');
    }
    if (judged.length > 0 && judged.length === byRepository.size) {
      for (const scan of judged) ctx.note(`svc gate: --commit ${sha.slice(0, 12)}: judging scan ${idOf(scan)} (${escapeControls(String(scan.codeScanType ?? 'scan'))} of that commit, ${escapeControls(String(scan.status ?? 'finished'))}${judged.length > 1 ? (scan.repositoryId !== undefined && scan.repositoryId !== null ? `, repository ${q(String(scan.repositoryId))}` : ', its repository not shown') : ''})`);
      return { sha, scans: judged.map((scan) => ({ id: idOf(scan), status: String(scan.status ?? 'finished') })) };
    }
    if (running) {
      const id = idOf(running);
      if (!o.wait) {
        throw new CliError(`gate: the scan ${q(id)} of commit ${sha} has not finished (status ${escapeControls(String(running.status ?? 'running'))}): its findings are not all known yet, so there is no verdict`, EXIT.PENDING, `add --wait to wait for it, or run the gate again when \`svc scans list --scan-id ${id}\` says completed`);
      }
      // What is left of --wait-timeout, in whole seconds (the wait's messages show it).
      const left = { ...o.wait, timeoutMs: Math.max(1000, Math.floor((o.wait.timeoutMs - (ctx.now() - started)) / 1000) * 1000) };
      try {
        await waitForScan(ctx, id, scope.organizationId, left);
      } catch (err) {
        if (err instanceof WaitTimeoutError) throw new CliError(err.message, EXIT.PENDING, err.hint);
        throw err;
      }
      continue;
    }
    if (found.ofCommit.length > 0) {
      // A repository whose every scan of the commit failed: its findings are not complete.
      const failed = [...byRepository.values()].filter((scans) => !scans.some((x) => judged.includes(x))).flat();
      const why = failed.map((x) => `${q(idOf(x))}: ${escapeControls(typeof x.errorMessage === 'string' && x.errorMessage.trim() !== '' ? x.errorMessage.trim() : `status ${String(x.status)}`)}`);
      throw new CliError(`gate: the ${failed.length === 1 ? 'scan' : 'scans'} of commit ${sha} failed (${why.join('; ')})`, EXIT.GATE_FAILED, 'a failed scan has no complete findings: fix the cause and scan again');
    }
    // No scan of the commit listed yet: in a pull request build, none comes when PR scanning is off.
    await prScanningOff(ctx, scope, o.ci, sha);
    if (!o.wait) {
      // scans list shows no commit at all: the issue evidence decides (commit-scan.ts).
      if (!found.anyCommit) return undefined;
      throw new CliError(
        `gate: no scan of commit ${sha}${ofTypes(scope)} in scope yet (scans list names the commit of each scan, and none is this one): the service has not scanned it yet, or --commit names the wrong commit`,
        EXIT.NOT_FOUND,
        'add --wait to wait for the service\'s scan of it (bounded by --wait-timeout); check the sha (git rev-parse HEAD)',
      );
    }
    // scans list shows no commit at all: svc waits only until no scan of the scope runs, then the issue evidence decides.
    if (!found.anyCommit && found.running === 0) return undefined;
    const elapsed = ctx.now() - started;
    if (elapsed >= o.wait.timeoutMs) {
      throw new CliError(
        `gate: no finished scan of commit ${sha}${ofTypes(scope)} after ${duration(elapsed)} (--wait-timeout ${o.wait.timeoutMs / 1000}), so there is no verdict yet`,
        EXIT.PENDING,
        'the service may not have received the push yet, or scans take longer: raise --wait-timeout, or run the gate again later (svc scans list shows the scans)',
      );
    }
    if (!said) {
      ctx.note(`svc gate: waiting for the service's scan of commit ${sha.slice(0, 12)} (every ${o.wait.pollMs / 1000}s, up to ${o.wait.timeoutMs / 1000}s; --wait-timeout)`);
      said = true;
    }
    try {
      await ctx.sleep(Math.min(o.wait.pollMs, o.wait.timeoutMs - elapsed), ctx.signal);
    } catch {
      throw new InterruptedError(ctx.signal.reason === 'SIGTERM' ? 'SIGTERM' : 'SIGINT');
    }
  }
}

/**
 * The scope of the listing that judges the scans found (findCommitScan): one scan is the search's
 * `scanId`; several (one per repository) are each listed in turn (count.ts), returned here. The scan
 * ids name the scans, so `--code-scan-types` is dropped: a type filter the judged scan's type does not
 * show could only leave its issues out (it was checked against each scan's shown type in `look`).
 */
export function judgeScans(scope: Record<string, unknown>, head: VerifiedCommit): string[] | undefined {
  delete scope.codeScanTypes;
  if (head.scans.length === 1) {
    scope.scanId = head.scans[0].id;
    return undefined;
  }
  return head.scans.map((s) => s.id);
}
