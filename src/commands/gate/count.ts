/**
 * The gate's count: every open issue of the scope read (all pages, checked against totalCount and the
 * counts beside it, listing/pager.ts), each checked (an id, values it can decide on, a repository of
 * the scope) and given to the sieve (baseline, policy, --diff, --new-since, --commit) and the tally.
 *
 * Memory: issues are counted as pages arrive. Only the issues a report or the verdict lists are
 * kept, without their heaviest fields (code segment, patch, rule-violation text): with --sarif,
 * --junit or --annotations every open issue (the reports list them all), else only those at a
 * level that a threshold looks at.
 */
import type { Context } from '../../context.js';
import { ResponseError } from '../../http/api-errors.js';
import { BufferPool } from '../../http/buffer-pool.js';
import { Pager, allowListeners } from '../../listing/pager.js';
import { decodePage, releasePage } from '../../listing/page-decode.js';
import { count } from '../../terminal/progress.js';
import { createTally, type IssueInput } from '../../gate/tally.js';
import type { Thresholds } from '../../gate/policy.js';
import type { GateVerdict } from '../../gate/verdict.js';
import { createSieve } from '../../gate/sieve.js';
import { fingerprintOf } from '../../gate/fingerprint.js';
import { UntrustedValueError, checkIssueValues } from '../../gate/trust.js';
import { searchOperation } from './scope-flags.js';
import type { GateSetup } from './setup.js';
import { checkIssueRepository, checkRepositoryName, type RepositoryNames, type ScopeRepositories } from './scope-repositories.js';
import type { SpillStore } from './spill.js';

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

export async function countIssues(
  ctx: Context,
  scope: Record<string, unknown>,
  options: Thresholds,
  setup: GateSetup,
  o: { size: number; concurrency: number; keepAll: boolean; keepSifted: boolean; fingerprints: boolean; store: SpillStore; repositoryNames?: RepositoryNames; repositories?: ScopeRepositories },
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
  const pager = new Pager({
    what: 'gate',
    pagination: op.pagination!,
    // getCounts: the spec's search answers carry categoryCounts only when asked (the sandbox too):
    // without them a change while reading that keeps totalCount and totalCountAllCategories (an open
    // issue patched, a processing one opened) is not seen (page-counts.ts).
    body: gateSearchBody(scope),
    pageSize: o.size,
    concurrency: o.concurrency,
    requireTotal: true,
    // More than one page and no counts beside the total on page 1: a change while reading could not be seen (exit 7).
    requireCounts: true,
    // Each page's counts and each issue's scope checked against what was asked (listing/answer-checks.ts).
    path: op.path,
    // Pages read into reused buffers and parsed when their turn comes (src/listing/page-decode.ts).
    call: (b) => client.call(op.path, b, { safe: true, raw: buffers }),
    decode: (answer) => decodePage(answer, op.pagination!.items),
    warn: (l) => ctx.warn(l),
  });
  // --new-since reads createdAt: then it must be a date-time (trust.ts).
  const dates = setup.sieve.since !== undefined;
  const progress = await ctx.progress('gate: reading open issues');
  try {
    for await (const page of pager.pages()) {
      releasePage(page.data);
      for (const item of page.items) sieve.add(asIssue(item, page.page, dates, o.repositoryNames, o.repositories));
      progress.update(`gate: fetched ${count(pager.fetched)} of ${count(pager.total ?? 0)} open issues`);
    }
  } finally {
    progress.stop();
  }
  const sifted = sieve.finish();
  const totalCount = pager.total!;
  if (sieve.seen !== totalCount) {
    // The pager already checks this; kept as the last line of defence of the fail-closed rule.
    throw new ResponseError(`gate: counted ${sieve.seen} issues but the service reported ${totalCount}`);
  }
  const narrowed = setup.baseline || setup.policy || setup.sieve.diff || setup.sieve.since !== undefined || setup.sieve.commit !== undefined;
  return { result: tally.result(), ...(narrowed ? { sifted } : {}), scope, fetched: pager.fetched, totalCount };
}

/** An item of the listing as an issue; anything that is not an object cannot be counted. */
function asIssue(item: unknown, page: number, dates: boolean, names: RepositoryNames | undefined, repositories: ScopeRepositories | undefined): IssueInput {
  if (item === null || typeof item !== 'object' || Array.isArray(item)) {
    throw new ResponseError(`gate: page ${page} holds an item that is not an issue record`, undefined, 'check the base URL; try again with --verbose');
  }
  const issue = item as IssueInput;
  if ((typeof issue.id !== 'string' || issue.id.trim() === '') && typeof issue.id !== 'number') {
    throw new ResponseError(`gate: page ${page} holds an issue without an id`, undefined, 'check the base URL; try again with --verbose');
  }
  try {
    checkIssueValues(issue, dates);
  } catch (err) {
    if (err instanceof UntrustedValueError) {
      throw new ResponseError(`gate: page ${page}: ${err.message}, so there is no verdict`, undefined, 'the service answered a value outside the API\'s definition; svc decides only on values it can check (docs/security.md)');
    }
    throw err;
  }
  if (names) checkRepositoryName(names, issue as Record<string, unknown>, page);
  if (repositories) checkIssueRepository(repositories, issue as Record<string, unknown>, page);
  return issue;
}
