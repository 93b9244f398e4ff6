/**
 * What an answer of a listing must agree with: itself (its counts) and the request (its scope).
 * A 2xx answer that contradicts either is exit 7 naming what disagreed, never data and never a
 * verdict (docs/security.md, "What the gate does not trust"). Used by the listing engine (pager.ts:
 * `--all` and the gate, every page and every item) and by a single call's rendering (respond.ts).
 *
 * Counts (issues search, whose answer carries several):
 * - `totalCount`, `totalCountAllCategories` and the `categoryCounts` of the statuses asked for are
 *   whole numbers, 0 or more;
 * - `totalCountAllCategories` (every status) is not smaller than `totalCount` (the statuses asked for);
 * - with `types` asked for, `totalCount` is the sum of their `categoryCounts` (when the answer has them);
 * - `currentPage` (when given) is the page asked for; a page holds no more items than asked for,
 *   nor more than `totalCount`.
 * Stats `issuesBySeverity`: `total` is the sum of `severityCounts`.
 *
 * Scope (every item of issues search and scans list): an item that names a repository, organization,
 * project, scan or rule other than the ones asked for, or (issues) a status the request's `types`
 * did not ask for, shows that the service ignored a filter. Checked on fields the item carries: one
 * it leaves out cannot disagree. Cheap per item: a few property reads.
 */
import { ResponseError } from '../http/api-errors.js';
import { answerValue, quoted } from '../core/sanitize.js';

type Json = Record<string, unknown>;
type Body = Record<string, unknown>;

const HINT = 'the service (or a proxy) answered something other than what was asked; no data from it is shown or counted: check the base URL and the service version; --verbose shows the answer';

const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);
const wholeCount = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;
const shown = (v: unknown): string => (typeof v === 'string' ? quoted(v) : answerValue(v));

function contradiction(what: string, message: string): ResponseError {
  return new ResponseError(`${what}: the answer contradicts ${message}`, undefined, HINT);
}

/** How an answer's counts are checked. */
interface CountCheckOptions {
  /**
   * A status asked for that `categoryCounts` leaves out is not a contradiction (the counts it gives
   * must still be whole numbers; the sum is then not checked). Only for a lookup where a miss fails
   * closed anyway (the gate's --commit search of other statuses: the 5-key `issueCounts` shape of the
   * field notes has no `silenced` or `closed`).
   */
  omittedCategories?: boolean;
}

/** The counts of one issues search answer agree with each other and with the page asked for. */
function checkSearchCounts(data: Json, body: Body, what: string, o: CountCheckOptions = {}): void {
  const total = data.totalCount;
  const all = data.totalCountAllCategories;
  for (const [key, v] of [['totalCount', total], ['totalCountAllCategories', all]] as const) {
    if (v !== undefined && v !== null && !wholeCount(v)) throw contradiction(what, `itself: ${key} is ${shown(v)}, not a whole number`);
  }
  if (wholeCount(total) && wholeCount(all) && all < total) {
    throw contradiction(what, `itself: totalCountAllCategories ${all} (issues of every status) is smaller than totalCount ${total}`);
  }
  const types = Array.isArray(body.types) ? body.types.map(String) : undefined;
  const counts = data.categoryCounts;
  if (counts !== undefined && counts !== null) {
    if (!isObject(counts)) throw contradiction(what, `itself: categoryCounts is ${shown(counts)}, not an object of counts`);
    if (types && types.length > 0) {
      let sum = 0;
      let whole = true;
      for (const t of types) {
        const n = counts[t];
        if (n === undefined && o.omittedCategories) { whole = false; continue; }
        if (!wholeCount(n)) throw contradiction(what, `itself: categoryCounts.${t} is ${n === undefined ? 'missing' : shown(n)}, though ${t} issues were asked for`);
        sum += n;
      }
      if (whole && wholeCount(total) && sum !== total) {
        throw contradiction(what, `itself: totalCount is ${total} but categoryCounts gives ${sum} ${types.join(' + ')} issue${sum === 1 ? '' : 's'}`);
      }
    }
  }
  const items = data.issues;
  if (Array.isArray(items)) {
    if (wholeCount(total) && items.length > total) throw contradiction(what, `itself: it lists ${items.length} issues but totalCount is ${total}`);
    if (body.returnAll !== true) {
      const size = body.pageSize;
      if (typeof size === 'number' && items.length > size) throw contradiction(what, `the request: it lists ${items.length} issues on a page of ${size}`);
      const page = data.currentPage;
      const asked = typeof body.page === 'number' ? body.page : 1;
      if (page !== undefined && page !== null && page !== asked) throw contradiction(what, `the request: page ${asked} was asked for, it says currentPage ${shown(page)}`);
    }
  }
}

/** `issuesBySeverity`: total is the sum of the per-level counts. */
function checkSeverityTotal(data: Json, _body: Body, what: string): void {
  const counts = data.severityCounts;
  if (!isObject(counts) || data.total === undefined) return;
  let sum = 0;
  for (const [level, n] of Object.entries(counts)) {
    if (!wholeCount(n)) throw contradiction(what, `itself: severityCounts.${level} is ${shown(n)}, not a whole number`);
    sum += n;
  }
  if (!wholeCount(data.total) || data.total !== sum) throw contradiction(what, `itself: total is ${shown(data.total)} but severityCounts add up to ${sum}`);
}

const COUNT_CHECKS: Record<string, (data: Json, body: Body, what: string, o?: CountCheckOptions) => void> = {
  '/api/v1/issues/search': checkSearchCounts,
  '/api/v1/stats/issuesBySeverity': checkSeverityTotal,
};

/** Checks the counts of an answer of the operation at `path` (object answers of the operations above). */
export function checkAnswerCounts(path: string, data: unknown, body: Body, what: string, o?: CountCheckOptions): void {
  const check = COUNT_CHECKS[path];
  if (check && isObject(data)) check(data, body, what, o);
}

/** A field of an item and the request field that scopes it. */
interface ScopeRule {
  /** Request field: a string, or a list of strings. */
  asked: string;
  /** Where the item says it: the first of these paths it carries. */
  said: ReadonlyArray<readonly string[]>;
  name: string;
}

const ISSUE_SCOPE: readonly ScopeRule[] = [
  { asked: 'repositoryIds', said: [['repositoryId']], name: 'repository' },
  { asked: 'organizationId', said: [['organizationId']], name: 'organization' },
  { asked: 'projectId', said: [['projectId']], name: 'project' },
  { asked: 'scanId', said: [['codeScan', 'id'], ['scanId']], name: 'scan' },
  { asked: 'ruleId', said: [['naturalLanguageRuleViolation', 'ruleId'], ['ruleId']], name: 'rule' },
  { asked: 'types', said: [['status']], name: 'status' },
];

const SCAN_SCOPE: readonly ScopeRule[] = [
  { asked: 'repositoryIds', said: [['repositoryId']], name: 'repository' },
  { asked: 'organizationId', said: [['organizationId']], name: 'organization' },
  { asked: 'scanId', said: [['scanId'], ['id']], name: 'scan' },
];

const SCOPES: Record<string, readonly ScopeRule[]> = {
  '/api/v1/issues/search': ISSUE_SCOPE,
  '/api/v1/scans/list': SCAN_SCOPE,
  // topIssues answers a list of issues of the status `type` asked for (spec: enum open, patched).
  '/api/v1/stats/topIssues': [{ asked: 'type', said: [['status']], name: 'status' }],
};

function said(item: Json, path: readonly string[]): unknown {
  let v: unknown = item;
  for (const k of path) {
    if (!isObject(v)) return undefined;
    v = v[k];
  }
  return v;
}

/** An item that names something outside the request's scope, or undefined when each item is in it. */
export type ItemScopeCheck = (item: unknown, page: number) => void;

/**
 * The scope check of the items of the operation at `path` for this request, or undefined when the
 * request names no scope the items carry. Built once per listing.
 */
export function itemScopeCheck(path: string, body: Body, what: string): ItemScopeCheck | undefined {
  const rules: Array<{ rule: ScopeRule; allowed: Set<string> }> = [];
  for (const rule of SCOPES[path] ?? []) {
    const v = body[rule.asked];
    const list = Array.isArray(v) ? v : typeof v === 'string' || typeof v === 'number' ? [v] : undefined;
    if (list && list.length > 0) rules.push({ rule, allowed: new Set(list.map(String)) });
  }
  if (rules.length === 0) return undefined;
  return (item, page) => {
    if (!isObject(item)) return;
    for (const { rule, allowed } of rules) {
      for (const p of rule.said) {
        const v = said(item, p);
        if (v === undefined || v === null) continue;
        if ((typeof v === 'string' || typeof v === 'number') && allowed.has(String(v))) break;
        const id = typeof item.id === 'string' || typeof item.id === 'number' ? `item ${shown(String(item.id))}` : 'an item';
        throw new ResponseError(
          `${what}: page ${page} holds ${id} of ${rule.name} ${shown(v)}, outside the ${rule.name}${allowed.size === 1 ? '' : 's'} asked for (${[...allowed].map((a) => quoted(a)).join(', ')}): the service ignored the ${rule.asked} filter`,
          undefined, HINT,
        );
      }
    }
  };
}

/** One answer (not paged by the listing engine): its counts, and the scope of each item in its list `items`. */
export function checkAnswer(path: string, items: string | undefined, data: unknown, body: Body, what: string, o?: CountCheckOptions): void {
  checkAnswerCounts(path, data, body, what, o);
  const inScope = itemScopeCheck(path, body, what);
  if (!inScope) return;
  // A listing's items under its key; an answer that is itself a list (stats topIssues) holds them.
  const list = Array.isArray(data) ? data : items !== undefined && isObject(data) ? data[items] : undefined;
  if (Array.isArray(list)) for (const item of list) inScope(item, typeof body.page === 'number' ? body.page : 1);
}
