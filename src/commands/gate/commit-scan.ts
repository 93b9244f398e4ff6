/**
 * `--commit SHA`: the gate counts only the issues found by scans of one commit, so it decides only
 * when the service shows that it has scanned that commit, and the scan has finished. Otherwise every
 * open issue would be left out and "0 counted" would pass: a commit one digit off, the merge commit a
 * CI makes for a pull request, or a commit the service has not scanned yet.
 *
 * The API shows a scan's commit only on the issues it found (`codeScan.scanTargetBranchCommitSha` and
 * `codeScan.id`, the spec's Issue record); a `scans list` item names no commit (field notes). So:
 *
 * | what the service shows                                         | result                        |
 * |----------------------------------------------------------------|-------------------------------|
 * | an issue of the scope names the commit (open: from the gate's  | each scan it names is looked  |
 * | own listing; else any other status, searched newest first)     | up in `scans list`            |
 * |   - one of those scans is queued or running                    | exit 8 (no verdict yet); a    |
 * |                                                                | FAIL read of it stands (1)    |
 * |   - every one of a repository failed (another repository's     | exit 1, its message           |
 * |     finished scan beside it or not)                            |                               |
 * |   - `scans list` does not list it / the path is not offered    | no PASS (7; a FAIL read       |
 * |                                                                | stands) / exit 4              |
 * |   - such an issue names no scan (`codeScan.id`)                | no PASS (7; a FAIL stands)    |
 * | no issue of any status names it, and a scan of the scope's     | exit 8: it may be of this     |
 * | repositories is queued or running                              | commit; run the gate later    |
 * | no issue names it, no scan is running                          | exit 4: not scanned (yet), or |
 * |                                                                | the wrong commit              |
 *
 * A scan of the commit that found no issue at all cannot be told from no scan (exit 4, said so): gate
 * that scan with --scan-id instead.
 */
import type { Context } from '../../context.js';
import { CliError } from '../../core/errors.js';
import { EXIT } from '../../core/exit-codes.js';
import type { Client } from '../../http/client.js';
import { NotFoundError } from '../../http/api-errors.js';
import { checkAnswer, itemsOf } from '../../answers/item-scope.js';
import type { Report } from '../../answers/doubts.js';
import { escapeControls } from '../../core/sanitize.js';
import { commitOf, sameCommit, scanIdOf } from '../../gate/since.js';
import { findScan, reportScan, scanState } from '../../scans/wait.js';
import { callRow } from '../../http/row-call.js';
import { rowOf } from '../../operations/index.js';
import { inScopeScan, type ScopeRepositories } from './scope-repositories.js';
import type { VerifiedCommit } from '../../gate/verdict.js';

/**
 * The statuses other than open that the spec's `categoryCounts` count (an answer's counts are checked
 * against the `types` asked for). `notExploitable`, seen only in the field notes, is not searched: an
 * issue of it shows nothing, which can only fail closed.
 */
const NOT_OPEN = ['patched', 'falsePositive', 'archived', 'processing', 'silenced', 'closed'];
const PAGE_SIZE = 500;
/** At most this many pages of other statuses are searched (500,000 issues), then: not found. */
const MAX_PAGES = 1000;
/** Recent scans looked at for one that is still running. */
const RECENT_SCANS = 100;

/**
 * What was verified of --commit (the summary's and `-o json`'s `verified.commit`), and `judge`: the
 * scans whose findings the gate counts, when every scan the issues name was found and has ended.
 */
interface CommitScans {
  commit: VerifiedCommit;
  judge?: string[];
}

/** What the gate's listing found: the scans named by open issues of the commit (sieve.ts). */
interface Evidence {
  ids: string[];
  unnamed: number;
}

const q = (id: string) => `'${escapeControls(id)}'`;
const plural = (n: number, one: string, many: string) => (n === 1 ? one : many);

interface Scope {
  org?: string;
  repoIds?: string[];
  project?: string;
  scanId?: string;
  /** The scope's repositories as `repositories list` gave them (scope.ts), when the gate read it. */
  repositories?: ScopeRepositories;
}

function scopeOf(scope: Record<string, unknown>): Scope {
  const s: Scope = {};
  if (typeof scope.organizationId === 'string') s.org = scope.organizationId;
  if (Array.isArray(scope.repositoryIds)) s.repoIds = scope.repositoryIds.map(String);
  if (typeof scope.projectId === 'string') s.project = scope.projectId;
  if (typeof scope.scanId === 'string') s.scanId = scope.scanId;
  return s;
}

/** "repository 'repo_1'", "project 'p'", "organization 'org_1'": where the commit was looked for. */
function whereText(s: Scope): string {
  const where = s.repoIds
    ? `${plural(s.repoIds.length, 'repository', 'repositories')} ${s.repoIds.map(q).join(', ')}`
    : s.project !== undefined ? `project ${q(s.project)}` : s.org !== undefined ? `organization ${q(s.org)}` : "the token's organization";
  return s.scanId !== undefined ? `${where} (scan ${q(s.scanId)})` : where;
}

/** An issue of another status that names the commit, within the scope (an item outside it proves nothing). */
function inScope(item: Record<string, unknown>, s: Scope): boolean {
  if (s.repoIds && !s.repoIds.includes(String(item.repositoryId))) return false;
  if (s.repositories && item.repositoryId !== undefined && item.repositoryId !== null && !s.repositories.ids.has(String(item.repositoryId))) return false;
  if (s.scanId !== undefined && scanIdOf(item) !== s.scanId) return false;
  return true;
}

/** The scans named by issues of other statuses that name the commit, newest first; none: empty. */
async function searchOtherStatuses(client: Client, s: Scope, sha: string, report: Report): Promise<Evidence> {
  const body: Record<string, unknown> = { types: NOT_OPEN, sortBy: 'createdAt', sortOrder: 'desc', pageSize: PAGE_SIZE };
  if (s.org !== undefined) body.organizationId = s.org;
  if (s.repoIds) body.repositoryIds = s.repoIds;
  if (s.project !== undefined) body.projectId = s.project;
  if (s.scanId !== undefined) body.scanId = s.scanId;
  const found: Evidence = { ids: [], unnamed: 0 };
  const search = await rowOf('issues', 'search');
  for (let page = 1; page <= MAX_PAGES; page++) {
    const asked = { ...body, page };
    const data = await callRow(client, search, asked, { what: 'gate: --commit: issues search' }) as Record<string, unknown>;
    // Its counts and each issue's scope checked as every listing's are (a filter ignored: exit 7).
    // A status asked for that categoryCounts leaves out (the field notes' 5-key issueCounts has no
    // silenced or closed) is no contradiction here: a miss on this lookup fails closed (exit 4) anyway.
    checkAnswer(search.path, 'issues', data, asked, 'gate: --commit: issues search', report, { omittedCategories: true });
    const items = itemsOf(data, 'issues', 'gate: --commit: issues search', report);
    const ids = new Set<string>();
    for (const item of items) {
      if (item === null || typeof item !== 'object') continue;
      const rec = item as Record<string, unknown>;
      const its = commitOf(rec);
      if (its === undefined || !sameCommit(its, sha) || !inScope(rec, s)) continue;
      const scan = scanIdOf(rec);
      if (scan === undefined) found.unnamed++;
      else ids.add(scan);
    }
    if (ids.size > 0 || found.unnamed > 0) return { ids: [...ids].sort(), unnamed: found.unnamed };
    const total = typeof data.totalCount === 'number' ? data.totalCount : undefined;
    if (items.length < PAGE_SIZE || (total !== undefined && page * PAGE_SIZE >= total)) break;
  }
  return found;
}

/** The state of each scan the issues name: running -> 8, all failed -> 1, unknown -> 7 (or 4). */
async function checkScans(client: Client, s: Scope, sha: string, ids: string[], report: Report, doubts: Context['doubts'], failing?: (text: string) => void): Promise<CommitScans> {
  const scans: VerifiedCommit['scans'] = [];
  const failed: string[] = [];
  let unknown = 0;
  let running = 0;
  // Per repository (a scan naming none: on its own, as head-scan.ts groups them): whether a scan of it
  // did not fail. One whose every scan failed has no complete findings, whatever another's scan says.
  const sound = new Map<string, boolean>();
  const failedOf = new Map<string, string[]>();
  const list = await rowOf('scans', 'list');
  for (const id of ids) {
    const body: Record<string, unknown> = { scanId: id, page: 1, pageSize: 10 };
    if (s.org !== undefined) body.organizationId = s.org;
    let item: Record<string, unknown> | undefined;
    try {
      const data = await callRow(client, list, body, { what: 'gate: --commit: scans list' });
      item = findScan(data, id, report, 'gate: --commit: scans list');
    } catch (err) {
      // scans/list is not in the spec (field notes): without it no scan can be shown to have finished.
      if (err instanceof NotFoundError) throw new CliError(`gate: the scan ${q(id)} of commit ${sha} cannot be checked to have finished: ${err.message}`, EXIT.NOT_FOUND, 'the service may not offer scans/list; gate on --scan-id or without --commit');
      throw err;
    }
    if (!item) {
      // Whether it has finished cannot be shown, which could only hide issues it has yet to list: no
      // PASS, but a breaking issue already read of the commit stands (answers/checks.ts: `stop`).
      doubts.add('commit-scan-unknown', 'gate', `issues name scan ${q(id)} of commit ${sha}, which scans list does not know, so its state cannot be checked`, 'check the base URL; try again with --verbose');
      unknown++;
      continue;
    }
    // A scan record carries no organizationId: its repository is checked against the scope's (no PASS).
    if (s.repositories) inScopeScan(s.repositories, id, item, doubts);
    const state = reportScan(item, `gate: scan ${q(id)}`, report);
    const status = String(item.status ?? state);
    if (state === 'running' && failing) {
      // A breaking issue of the commit was read: the scan can only list more, so the FAIL stands.
      failing(`gate: the scan ${q(id)} of commit ${sha} has not finished (status ${escapeControls(status)}): the FAIL stands on the issues it has listed so far; more may follow`);
      scans.push({ id, status });
      running++;
      continue;
    }
    if (state === 'running') {
      throw new CliError(
        `gate: the scan ${q(id)} of commit ${sha} has not finished (status ${escapeControls(status)}): its issues are not all known yet, so there is no verdict`,
        EXIT.PENDING,
        `run the gate again when \`svc scans list --scan-id ${id}\` says completed`,
      );
    }
    const repo = item.repositoryId;
    const key = typeof repo === 'string' || typeof repo === 'number' ? `repository ${String(repo)}` : `scan ${id}`;
    if (state === 'failed') {
      const why = typeof item.errorMessage === 'string' && item.errorMessage.trim() !== '' ? item.errorMessage.trim() : `status ${status}`;
      failed.push(`${q(id)}: ${escapeControls(why)}`);
      failedOf.set(key, [...(failedOf.get(key) ?? []), failed[failed.length - 1]]);
      if (!sound.has(key)) sound.set(key, false);
    } else {
      sound.set(key, true);
    }
    scans.push({ id, status });
  }
  // Every scan of a repository failed (of all the scans named, or of one repository beside another's
  // finished scan: its issues were judged, the failed one's not all known): exit 1, as head-scan.ts.
  const brokenKeys = [...sound.entries()].filter(([, ok]) => !ok).map(([key]) => key);
  const broken = brokenKeys.flatMap((key) => failedOf.get(key) ?? []);
  if (broken.length > 0 && unknown === 0) {
    // Beside another repository's finished scan: say whose failed (it read as the commit's only scan).
    const where = [...sound.values()].some((ok) => ok) ? ` in ${brokenKeys.map((k) => escapeControls(k)).join(', ')} (another repository's scan of it finished)` : '';
    throw new CliError(`gate: the ${plural(broken.length, 'scan', 'scans')} of commit ${sha}${where} failed (${broken.join('; ')})`, EXIT.GATE_FAILED, 'a failed scan has no complete findings: fix the cause and scan again');
  }
  // Every scan named was found and has ended: what the service lists for them is the commit's findings.
  return { commit: { sha, scans }, ...(unknown === 0 && running === 0 ? { judge: ids } : {}) };
}

/** Scans of the scope's repositories that are queued or running (among the most recent). */
async function runningScans(client: Client, s: Scope, report: Report): Promise<string[]> {
  const body: Record<string, unknown> = { page: 1, pageSize: RECENT_SCANS, sortBy: 'createdAt', sortOrder: 'desc' };
  if (s.org !== undefined) body.organizationId = s.org;
  if (s.repoIds) body.repositoryIds = s.repoIds;
  let data: unknown;
  const op = await rowOf('scans', 'list');
  try {
    data = await callRow(client, op, body, { what: 'gate: --commit: scans list' });
  } catch (err) {
    // Without scans/list nothing is known to be running: the commit is simply not found.
    if (err instanceof NotFoundError) return [];
    throw err;
  }
  // Scans of other repositories (a filter ignored) are left out below: they prove nothing here.
  const list = itemsOf(data, 'codeScans', 'gate: --commit: scans list', report);
  return list
    .filter((x): x is Record<string, unknown> => x !== null && typeof x === 'object')
    .filter((x) => !s.repoIds || s.repoIds.includes(String(x.repositoryId)))
    .filter((x) => scanState(x) === 'running')
    .map((x) => String(x.scanId ?? x.id ?? '?'));
}

/**
 * Verifies that the service has scanned `sha` within the gate's scope and that the scan has finished
 * (see the table above); throws the documented exit code when it cannot show it.
 */
export async function verifyCommitScanned(ctx: Context, searchScope: Record<string, unknown>, sha: string, listed: Evidence | undefined, repositories: ScopeRepositories | undefined, failed: boolean): Promise<CommitScans> {
  const client = await ctx.client();
  const s = scopeOf(searchScope);
  if (repositories) s.repositories = repositories;
  let evidence = listed ?? { ids: [], unnamed: 0 };
  const report = ctx.doubts.report;
  if (evidence.ids.length === 0 && evidence.unnamed === 0) evidence = await searchOtherStatuses(client, s, sha, report);
  if (evidence.unnamed > 0) {
    // No PASS on it; a breaking issue already read of the commit stands (answers/checks.ts: `stop`).
    ctx.doubts.add('commit-scan-unknown', 'gate',
      `${evidence.unnamed} ${plural(evidence.unnamed, 'issue names', 'issues name')} commit ${sha} but not the scan that found ${plural(evidence.unnamed, 'it', 'them')} (codeScan.id), so svc cannot check that the scan has finished`,
      'the service answered an issue without its scan id; try again with --verbose',
    );
    if (evidence.ids.length === 0) return { commit: { sha, scans: [] } };
  }
  // A FAIL already proven on the commit's issues stands while a scan of it is still running (exit 1, said).
  if (evidence.ids.length > 0) {
    const checked = await checkScans(client, s, sha, evidence.ids, report, ctx.doubts, failed ? (text) => ctx.warn(text) : undefined);
    return evidence.unnamed > 0 ? { commit: checked.commit } : checked;
  }
  const where = whereText(s);
  const running = await runningScans(client, s, report);
  if (running.length > 0) {
    const shown = running.slice(0, 3).map(q).join(', ') + (running.length > 3 ? ', ...' : '');
    throw new CliError(
      `gate: no scan of commit ${sha} in ${where} yet, and ${running.length} ${plural(running.length, 'scan is', 'scans are')} queued or running there (${shown}): one may be of this commit, so there is no verdict yet`,
      EXIT.PENDING,
      `run the gate again when they have finished (\`svc scans list${s.repoIds ? ` --repository-ids ${s.repoIds.join(',')}` : ''}\`); a commit that no scan names then is exit 4`,
    );
  }
  throw new CliError(
    `gate: no scan of commit ${sha} in ${where} yet: no issue of any status names it, so the service has not scanned it, or --commit names the wrong commit`,
    EXIT.NOT_FOUND,
    'check the sha (git rev-parse HEAD), or run the gate again once the service has scanned it; the API shows a scan\'s commit only on the issues it found, so a scan that found none cannot be shown: gate that scan with --scan-id instead',
  );
}
