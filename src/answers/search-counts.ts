/**
 * The counts of an answer, checked against each other and the page asked for (rows of checks.ts). What
 * is found is reported; the run's use decides what follows (doubts.ts): a read command shows the
 * answer with a warning, the gate stops a PASS where a count says more issues exist than were listed.
 *
 * Issues search (its answer carries several counts; the spec gives their types, never what they
 * count over):
 * - `totalCount`, `totalCountAllCategories` and each `categoryCounts` value are whole numbers
 *   (`no-total`, `count-unreadable`): one that is not is left out of every comparison;
 * - inference: `totalCountAllCategories` counts every status, so it is not below `totalCount` (`all-below-total`);
 * - inference: `categoryCounts` count the search's scope, so with `types` asked for their sum is
 *   `totalCount` (`counts-above-total`, `counts-below-total`); a status asked for that `categoryCounts`
 *   leaves out is read as 0 (`count-absent`, inference: zero counts left out). With `wide` (the gate's
 *   `--counts wide`) the service counts categories over a wider scope: the sum says nothing;
 * - a page holds no more items than `totalCount` (`over-total`, inference) nor than the page size
 *   asked for (`over-page-size`); `currentPage`, when given, is the page asked for (`current-page`).
 * Stats `issuesBySeverity`: `total` is the sum of `severityCounts` (`severity-total`, inference).
 *
 * Cheap per page: a few property reads.
 */
import { answerValue, quoted } from '../core/sanitize.js';
import type { Report } from './doubts.js';
import { apiPath } from '../operations/row.js';

type Json = Record<string, unknown>;
type Body = Record<string, unknown>;

/** The operations whose answers carry counts, by their rows' paths (operations/row.ts). */
export const ISSUES_SEARCH = apiPath('issues', 'search');
const ISSUES_BY_SEVERITY = apiPath('stats', 'issuesBySeverity');

const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);
const wholeCount = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;
const shown = (v: unknown): string => (typeof v === 'string' ? quoted(v) : answerValue(v));
const issues = (n: number) => `${n} issue${n === 1 ? '' : 's'}`;

/** How an answer's counts are checked. */
export interface CountOptions {
  /**
   * A status asked for that `categoryCounts` leaves out is not reported, and the sum is not compared.
   * Only for a lookup where a miss fails closed anyway (the gate's --commit search of other statuses:
   * the 5-key `issueCounts` shape of the field notes has no `silenced` or `closed`).
   */
  omittedCategories?: boolean;
  /** The gate's `--counts wide`: categoryCounts count a wider scope than the search's filters. */
  wide?: boolean;
}

/**
 * The sum of `categoryCounts` over the statuses asked for, when every one of them is readable (a
 * missing one read as 0); undefined when no statuses were asked for, or a count cannot be read.
 */
export function askedCategorySum(data: unknown, body: Body): number | undefined {
  const types = Array.isArray(body.types) ? body.types.map(String) : undefined;
  const counts = isObject(data) ? data.categoryCounts : undefined;
  if (!types || types.length === 0 || !isObject(counts)) return undefined;
  let sum = 0;
  for (const t of types) {
    const n = counts[t];
    if (n === undefined || n === null) continue;
    if (!wholeCount(n)) return undefined;
    sum += n;
  }
  return sum;
}

/** The counts of one issues search answer against each other and the page asked for. */
function checkSearchCounts(data: Json, body: Body, what: string, report: Report, o: CountOptions = {}): void {
  const total = data.totalCount;
  const all = data.totalCountAllCategories;
  if (total !== undefined && total !== null && !wholeCount(total)) report('no-total', what, `totalCount is ${shown(total)}, not a whole number`);
  if (all !== undefined && all !== null && !wholeCount(all)) report('count-unreadable', what, `totalCountAllCategories is ${shown(all)}, not a whole number`);
  if (wholeCount(total) && wholeCount(all) && all < total) {
    report('all-below-total', what, `totalCountAllCategories ${all} (issues of every status) is smaller than totalCount ${total}`);
  }
  const types = Array.isArray(body.types) ? body.types.map(String) : undefined;
  const counts = data.categoryCounts;
  if (counts !== undefined && counts !== null) {
    if (!isObject(counts)) {
      report('count-unreadable', what, `categoryCounts is ${shown(counts)}, not an object of counts`);
    } else if (types && types.length > 0) {
      let sum = 0;
      let readable = true;
      const absent: string[] = [];
      for (const t of types) {
        const n = counts[t];
        if (n === undefined || n === null) {
          if (o.omittedCategories) readable = false;
          else absent.push(t);
          continue;
        }
        if (!wholeCount(n)) {
          report('count-unreadable', what, `categoryCounts.${t} is ${shown(n)}, not a whole number`);
          readable = false;
          continue;
        }
        sum += n;
      }
      if (absent.length > 0) report('count-absent', what, `categoryCounts gives no ${absent.join(', ')} (asked for with types), read as 0`);
      if (readable && !o.wide && wholeCount(total) && sum !== total) {
        const text = `totalCount is ${total} but categoryCounts gives ${sum} ${types.join(' + ')} issue${sum === 1 ? '' : 's'}`;
        report(sum > total ? 'counts-above-total' : 'counts-below-total', what, text);
      }
    }
  }
  const items = data.issues;
  if (Array.isArray(items)) {
    if (wholeCount(total) && items.length > total) report('over-total', what, `it lists ${issues(items.length)} but totalCount is ${total}`);
    if (body.returnAll !== true) {
      const size = body.pageSize;
      // A page as long as the answer's own pageSize says is the service's page size (page-size-capped).
      const stated = data.pageSize;
      const ownSize = typeof stated === 'number' && Number.isInteger(stated) && items.length === (wholeCount(total) ? Math.min(stated, total) : stated);
      if (typeof size === 'number' && items.length > size && !ownSize) report('over-page-size', what, `it lists ${issues(items.length)} on a page of ${size}`);
      const page = data.currentPage;
      const asked = typeof body.page === 'number' ? body.page : 1;
      if (page !== undefined && page !== null && page !== asked) report('current-page', what, `page ${asked} was asked for, it says currentPage ${shown(page)}`);
    }
  }
}

/** `issuesBySeverity`: total is the sum of the per-level counts (inference: with --severities it may count every level). */
function checkSeverityTotal(data: Json, _body: Body, what: string, report: Report): void {
  const counts = data.severityCounts;
  if (!isObject(counts) || data.total === undefined) return;
  let sum = 0;
  for (const n of Object.values(counts)) {
    // The spec gives the counts as numbers: one that is not is the record's shape (a warning of its own).
    if (typeof n !== 'number' || !Number.isFinite(n)) return;
    sum += n;
  }
  if (data.total !== sum) report('severity-total', what, `total is ${shown(data.total)} but severityCounts add up to ${sum}`);
}

const COUNT_CHECKS: Record<string, (data: Json, body: Body, what: string, report: Report, o?: CountOptions) => void> = {
  [ISSUES_SEARCH]: checkSearchCounts,
  [ISSUES_BY_SEVERITY]: checkSeverityTotal,
};

/** Checks the counts of an answer of the operation at `path` (object answers of the operations above). */
export function checkAnswerCounts(path: string, data: unknown, body: Body, what: string, report: Report, o?: CountOptions): void {
  const check = COUNT_CHECKS[path];
  if (check && isObject(data)) check(data, body, what, report, o);
}
