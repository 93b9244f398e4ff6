/**
 * The gate's count: every open issue of the scope read (all pages, checked against totalCount and the
 * counts beside it, listing/all-pages.ts), each checked (answers/checks.ts: a record with an id, of the
 * scope, with values the gate can decide on: what it cannot is counted fail closed and named, or not
 * counted and no PASS) and given to the sieve (baseline, policy, --diff, --new-since, --commit) and
 * the tally.
 *
 * Memory: issues are counted as pages arrive. Only the issues a report or the verdict lists are
 * kept, without their heaviest fields (code segment, patch, rule-violation text): with --sarif,
 * --junit or --annotations every open issue (the reports list them all), else only those at a
 * level that a threshold looks at.
 */
import type { Context } from '../../context.js';
import { ApiError } from '../../http/api-errors.js';
import { CliError } from '../../core/errors.js';
import { answerValue, quoted } from '../../core/sanitize.js';
import type { CheckId } from '../../answers/checks.js';
import { AnswerRefusedError, type Doubts } from '../../answers/doubts.js';
import { askedCategorySum } from '../../answers/search-counts.js';
import { BufferPool } from '../../http/buffer-pool.js';
import { Pager, allowListeners } from '../../listing/all-pages.js';
import { IdSet } from '../../listing/id-set.js';
import { decodePage, releasePage } from '../../listing/page-decode.js';
import { count } from '../../terminal/progress.js';
import { createTally, type IssueInput } from '../../gate/tally.js';
import type { Thresholds } from '../../gate/policy.js';
import type { GateVerdict } from '../../gate/verdict.js';
import { createSieve } from '../../gate/sieve.js';
import { fingerprintOf } from '../../gate/fingerprint.js';
import { isoInstant } from '../../gate/date-time.js';
import { uncertainNew } from '../../gate/since.js';
import { searchOperation } from './scope-flags.js';
import type { GateSetup } from './setup.js';
import { inScopeRepository, sameRepositoryName, type RepositoryNames, type ScopeRepositories } from './scope-repositories.js';
import type { SpillStore } from './spill.js';
import { sendRow } from '../../http/row-call.js';

/** Fields dropped from the issues the gate keeps: large, and in no report. */
const HEAVY_FIELDS = ['sastCodeSegment', 'businessLogicScenario', 'validationSecurityAssessment', 'patch', 'naturalLanguageRuleViolation'];

/**
 * How the gate keeps a counted issue: without its heavy fields, its id a string, and with
 * `fingerprints` its fingerprint (a sha256: what reports, -o json/csv and baselines show; the table
 * summary shows none, so a gate that writes only that computes none).
 *
 * In place: the gate owns every issue it counts (each item of a page is parsed on its own), so the
 * issue is changed and returned, not copied (a copy of 28,000 issues cost ~0.2 s at 100,000 issues).
 * A heavy field becomes undefined, which JSON leaves out as it leaves out a missing one. An issue
 * whose first field is not its id is copied with the id first, as the gate has always listed them.
 */
export function slimmer(fingerprints: boolean): (issue: IssueInput) => IssueInput {
  return (issue) => {
    let first: string | undefined;
    for (const key in issue) { first = key; break; }
    let out: IssueInput;
    if (first === 'id') {
      out = issue;
      if (typeof out.id !== 'string') out.id = String(out.id);
      for (const key of HEAVY_FIELDS) if (out[key] !== undefined) out[key] = undefined;
    } else {
      out = { id: String(issue.id) };
      for (const key in issue) if (key !== 'id' && !HEAVY_FIELDS.includes(key)) out[key] = issue[key];
    }
    if (fingerprints && typeof out.fingerprint !== 'string') out.fingerprint = fingerprintOf(issue);
    return out;
  };
}
/** The kept issue as reports and baselines need it, with its fingerprint. */
export const slimIssue = slimmer(true);

/** The body of every page of the gate's listing: the scope, its counts asked for, oldest first. */
export function gateSearchBody(scope: Record<string, unknown>): Record<string, unknown> {
  return { ...scope, getCounts: true, sortBy: 'createdAt', sortOrder: 'asc' };
}

/** What the gate's count is made on: the listing's options and what the scope verification found. */
export interface CountOptions {
  size: number;
  concurrency: number;
  keepAll: boolean;
  keepSifted: boolean;
  fingerprints: boolean;
  store: SpillStore;
  repositoryNames?: RepositoryNames;
  repositories?: ScopeRepositories;
  /** --counts wide (or the policy's `counts: wide`): categoryCounts count a wider scope than the search's. */
  countsWide?: boolean;
  /** --commit held in several repositories: each one's scan of it listed in turn (head-scan.ts judgeScans). */
  scanIds?: string[];
  /** Given: the id of every issue the listing holds is added to it (commit-count.ts compares two listings). */
  listedIds?: Set<string>;
}

/** A failure reading the listing after some of it was read: a FAIL proven on what was read stands. */
function readingFailure(err: unknown): err is CliError {
  return err instanceof ApiError || err instanceof AnswerRefusedError;
}

/**
 * Counts every issue of the scope (all pages). What the answers leave in doubt is reported to the
 * run's doubts (use `gate`, answers/checks.ts): an issue of a status not asked for, or without a
 * readable score or date, is counted fail closed (and named); an issue of another repository,
 * organization or project is not counted, and like every doubt that could hide a breaking issue it
 * stops a PASS (run.ts decides: a FAIL read stands). A listing that cannot be read to its end (a
 * page refused, the network) ends the count: when what was read already FAILs, that verdict is
 * returned, saying the listing was incomplete; otherwise the failure is the gate's.
 */
export async function countIssues(
  ctx: Context,
  scope: Record<string, unknown>,
  options: Thresholds,
  setup: GateSetup,
  o: CountOptions,
): Promise<Omit<GateVerdict, 'verified'>> {
  const op = searchOperation();
  const client = await ctx.client();
  allowListeners(ctx.signal, o.concurrency);
  // No --optimize-for-size here (listings set it, src/listing/heap.ts): the gate keeps the issues its
  // reports list, and that flag's frequent full collections mark them again and again: at 100,000
  // issues 1.6 s instead of 1.1 s, with --sarif 3.8-4.5 s instead of 2.4 s, for ~20 MB less RSS.
  const slim = o.fingerprints ? slimIssue : slimmer(false);
  const tally = createTally({ ...options, keep: o.keepAll ? 'all' : 'breaking', slim, store: o.store });
  const sieve = createSieve(tally, { ...setup.sieve, cutoffs: options.cutoffs, keep: o.keepSifted, slim });
  const buffers = new BufferPool(o.concurrency + 2);
  const bodies = o.scanIds ? o.scanIds.map((scanId) => gateSearchBody({ ...scope, scanId })) : [gateSearchBody(scope)];
  const pagerOf = (body: Record<string, unknown>) => new Pager({
    what: 'gate',
    pagination: op.pagination!,
    // getCounts: the spec's search answers carry categoryCounts only when asked (the sandbox too):
    // without them a change while reading that keeps totalCount and totalCountAllCategories (an open
    // issue patched, a processing one opened) is not seen (page-counts.ts).
    body,
    pageSize: o.size,
    concurrency: o.concurrency,
    // Each page's counts and each issue's scope checked against what was asked (answers/).
    path: op.path,
    report: ctx.doubts.report,
    // An issue named by `issueId` (item-id-field) is counted and named by it.
    adoptId: true,
    // A page proven wrong (its total changed, its length) is refused after its issues are counted:
    // a breaking issue it holds proves the FAIL (the catch below).
    holdRefusals: true,
    ...(o.countsWide ? { counts: { wide: true } } : {}),
    // Pages read into reused buffers and parsed when their turn comes (src/listing/page-decode.ts).
    call: (b) => sendRow(client, op, b, { raw: buffers }),
    decode: (answer) => decodePage(answer, op.pagination!.items),
  });
  // The listings read, each one's fetched and total summed (undefined: one reported no total).
  let fetched = 0;
  let total: number | undefined = 0;
  // --new-since reads createdAt: then an issue without a date-time is counted as new, and named (date-time.ts).
  const check = { since: setup.sieve.since, names: o.repositoryNames, repositories: o.repositories, doubts: ctx.doubts };
  let notCounted = 0;
  // --commit in several repositories: an issue one scan's listing gave is counted there only. One issue
  // is one issue (a service that ignores scanId answers every listing with the same issues: counting
  // them again breaks a --max-* that the issues read hold, and lists them twice in every report).
  const across = bodies.length > 1 ? new IdSet() : undefined;
  let again = 0;
  const againShown: string[] = [];
  let incomplete: string | undefined;
  let stoppedBy: CliError | undefined;
  const progress = await ctx.progress('gate: reading open issues');
  try {
    for (const [listing, body] of bodies.entries()) {
      const pager = pagerOf(body);
      try {
        for await (const page of pager.pages()) {
          releasePage(page.data);
          page.items.forEach((item, i) => {
            const marks = page.doubted?.get(i);
            // Handed out on an earlier page already (the listing is refused after this page: id-twice).
            if (marks?.includes('id-twice')) return;
            const id = item !== null && typeof item === 'object' ? (item as Record<string, unknown>).id : undefined;
            if (o.listedIds && (typeof id === 'string' || typeof id === 'number')) o.listedIds.add(String(id));
            if (across && (typeof id === 'string' || typeof id === 'number') && (across.add(String(id), listing) ?? listing) < listing) {
              if (again++ < 3) againShown.push(String(id));
              return;
            }
            const issue = counted(item, page.page, marks, check);
            if (issue) sieve.add(issue);
            else notCounted++;
          });
          progress.update(`gate: fetched ${count(fetched + pager.fetched)}${pager.total !== undefined && bodies.length === 1 ? ` of ${count(pager.total)}` : ''} open issues`);
        }
      } finally {
        fetched += pager.fetched;
        total = total === undefined || pager.total === undefined ? undefined : total + pager.total;
      }
      if (pager.total === undefined && !o.countsWide) {
        // Without a total, counts beside the listing still say whether issues are missing from it.
        const sum = askedCategorySum(pager.firstData, body);
        if (sum !== undefined && sum > pager.fetched) ctx.doubts.add('counts-above-total', 'gate', `categoryCounts gives ${sum} open issue${sum === 1 ? '' : 's'} but the listing holds ${pager.fetched}`);
      }
    }
  } catch (err) {
    if (!readingFailure(err)) throw err;
    stoppedBy = err;
    incomplete = err.message;
  } finally {
    progress.stop();
  }
  if (again > 0) {
    ctx.warn(`gate: ${again} ${again === 1 ? 'issue was' : 'issues were'} listed under more than one scan of the commit (${againShown.map((id) => quoted(id, 40)).join(', ')}${again > 3 ? ', ...' : ''}): each counted once`);
  }
  const sifted = sieve.finish();
  const result = tally.result();
  result.ignored = notCounted;
  if (stoppedBy) {
    // A proven FAIL stands: more pages could only add issues. Otherwise the listing's failure is the gate's.
    if (result.passed) throw stoppedBy;
  } else if (total !== undefined && sieve.seen + notCounted + again !== total) {
    // The pager already checks this; kept as the last line of defence of the fail-closed rule.
    ctx.doubts.add('page-short', 'gate', `counted ${sieve.seen + notCounted + again} issues but the service reported ${total}`);
  }
  const narrowed = setup.baseline || setup.policy || setup.sieve.diff || setup.sieve.since !== undefined || setup.sieve.commit !== undefined;
  // The scans listed in turn are the scope read (the summary's Scope line, -o json): without them it
  // read as the whole organization's or repositories' open issues.
  const read = o.scanIds ? { ...scope, scanIds: o.scanIds } : scope;
  return { result, ...(narrowed ? { sifted } : {}), scope: read, fetched, ...(total !== undefined ? { totalCount: total } : {}), ...(incomplete !== undefined ? { incomplete } : {}) };
}

interface ItemChecks {
  /** --new-since, as ms: dates are read. */
  since: number | undefined;
  names: RepositoryNames | undefined;
  repositories: ScopeRepositories | undefined;
  doubts: Doubts;
}

/**
 * An item of the listing as the issue the gate counts, or undefined when it is not counted: not a
 * record, or of a repository, organization or project outside the scope (answers/checks.ts
 * `item-not-record`, `item-foreign`, `item-outside-scope`: each stops a PASS). Counted fail closed
 * and named: a status not asked for, none, or a word svc does not know; a score that is missing or
 * not a number from 0 to 100 (critical); with --new-since a createdAt that is not a date-time (new).
 */
function counted(item: unknown, page: number, doubted: readonly CheckId[] | undefined, c: ItemChecks): IssueInput | undefined {
  if (doubted?.includes('item-not-record') || doubted?.includes('item-foreign')) return undefined;
  const issue = item as IssueInput;
  const at = `page ${page}: issue ${quoted(String(issue.id), 80)}`;
  if (c.names && !sameRepositoryName(c.names, issue as Record<string, unknown>, page, c.doubts)) return undefined;
  if (c.repositories && !inScopeRepository(c.repositories, issue as Record<string, unknown>, page, c.doubts)) return undefined;
  if (issue.status === undefined || issue.status === null || issue.status === '') c.doubts.add('item-status-absent', 'gate', `${at} has no status: counted as open`);
  const score = issue.score;
  if (score === undefined) {
    c.doubts.add('score-absent', 'gate', `${at} has no score: counted as critical`);
  } else if (!(typeof score === 'number' && score >= 0 && score <= 100)) {
    c.doubts.add('score-unreadable', 'gate', `${at} has score ${shown(score)}, not a number from 0 to 100: counted as critical`);
    // Counted as critical: the level of a missing score (operations/levels.ts); the value is named above.
    issue.score = undefined;
  }
  shapeOf(issue as Record<string, unknown>, at, c.doubts);
  if (c.since !== undefined && isoInstant(issue.createdAt) === undefined) {
    c.doubts.add('created-unreadable', 'gate', `${at} has ${issue.createdAt === undefined ? 'no createdAt' : `createdAt ${shown(issue.createdAt)}, not an ISO 8601 date-time`}: counted as new`);
  } else if (c.since !== undefined && uncertainNew(issue as Record<string, unknown>, c.since)) {
    c.doubts.add('created-no-zone', 'gate', `${at} has createdAt ${shown(issue.createdAt)} without a zone: before --new-since as UTC, after it in a zone west of UTC: counted as new`);
  }
  return issue;
}

const shown = (v: unknown): string => answerValue(typeof v === 'string' ? v.slice(0, 80) : v);

/** The Issue record's fields the reports show, by the spec's types: string, or integer for lines. */
const REPORTED: ReadonlyArray<[string, 'string' | 'integer']> = [['id', 'string'], ['generatedTitle', 'string'], ['affectedFile', 'string'], ['vulnClass', 'string'], ['startLine', 'integer'], ['endLine', 'integer']];

/**
 * A field the reports show, present but of another type than the spec's (`shape`: a warning; the
 * verdict does not rest on it): `generatedTitle: 5` is a report's "Issue 7", `startLine: "10"` a
 * location at the repository root. Cheap per issue: six property reads.
 */
function shapeOf(issue: Record<string, unknown>, at: string, doubts: Doubts): void {
  for (const [field, type] of REPORTED) {
    const v = issue[field];
    if (v === undefined || v === null) continue;
    if (type === 'string' ? typeof v !== 'string' : !Number.isInteger(v)) doubts.add('shape', 'gate', `${at}: ${field} is ${shown(v)}, not ${type === 'string' ? 'a string' : 'a whole number'} (the spec's type): the reports show it as they can`);
  }
}
