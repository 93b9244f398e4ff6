/**
 * Each item of a listing against the filters of the request that found it (rows of checks.ts): an
 * item that names a repository, organization, project, scan, rule, status, severity, language or
 * class other than the ones asked for shows that the service ignored (or widened) a filter. What is
 * found is reported, and the run's use decides (doubts.ts): a read command shows it with a warning,
 * the gate counts it (or, for another repository's, organization's or project's item, leaves it out
 * and reaches no PASS), a bulk action skips it.
 *
 * Checked on fields the item carries: one it leaves out cannot disagree. Cheap per item: a few
 * property reads.
 */
import { quoted } from '../core/sanitize.js';
import type { CheckId } from './checks.js';
import type { Report } from './doubts.js';
import { ISSUES_SEARCH, checkAnswerCounts, type CountOptions } from './search-counts.js';
import { apiPath } from '../operations/row.js';

type Json = Record<string, unknown>;
type Body = Record<string, unknown>;

/** The listings whose items are checked against the request, by their rows' paths (operations/row.ts). */
const SCANS_LIST = apiPath('scans', 'list');
const TOP_ISSUES = apiPath('stats', 'topIssues');
const ORGS_LIST = apiPath('orgs', 'list');

/**
 * The issue statuses svc knows: the spec's seven (the keys of `categoryCounts`) and the field notes'
 * `notExploitable`. An issue of one of them that `types` did not ask for is `item-status-other`; any
 * other word, or a value that is not a string, is `item-status-unknown`: what the filter left out
 * cannot be told.
 */
const KNOWN_STATUSES: ReadonlySet<string> = new Set(['open', 'patched', 'falsePositive', 'archived', 'processing', 'silenced', 'closed', 'notExploitable']);

const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);
const text = (v: unknown): string => (typeof v === 'string' ? quoted(v) : quoted(JSON.stringify(v) ?? String(v)));
/** A word svc does not know, every character outside printable ASCII written as \u: a look-alike letter shows. */
const spelled = (v: unknown): string => (typeof v === 'string' ? quoted(v).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`) : text(v));

/** A request field and the item field that must agree with it. */
interface Rule {
  /** Request field. */
  asked: string;
  /** Where the item says it: the first of these paths it carries. */
  said: ReadonlyArray<readonly string[]>;
  name: string;
  /** The row a disagreement is. */
  check: CheckId;
  /** How the item's value matches what was asked: exactly (the default), ignoring case, or a range. */
  match?: 'case' | 'range' | 'status';
  /**
   * The spec's Issue record lists the field: an item without it (or with null) does not show that the
   * filter was applied (`item-filter-unshown`: a bulk action skips it). Not set for fields no record of
   * the spec carries (an issue has no organizationId or projectId).
   */
  listed?: boolean;
}

const ISSUE_RULES: readonly Rule[] = [
  { asked: 'repositoryIds', said: [['repositoryId']], name: 'repository', check: 'item-foreign', listed: true },
  { asked: 'organizationId', said: [['organizationId']], name: 'organization', check: 'item-foreign' },
  { asked: 'projectId', said: [['projectId']], name: 'project', check: 'item-foreign' },
  { asked: 'scanId', said: [['codeScan', 'id'], ['scanId']], name: 'scan', check: 'item-other-scan', listed: true },
  { asked: 'ruleId', said: [['naturalLanguageRuleViolation', 'ruleId'], ['ruleId']], name: 'rule', check: 'item-other-rule', listed: true },
  { asked: 'types', said: [['status']], name: 'status', check: 'item-status-other', match: 'status', listed: true },
  { asked: 'severities', said: [['severity']], name: 'severity', check: 'item-other-filter', match: 'range', listed: true },
  // Inference: a language or class written in another case is the one asked for (the spec lists no values).
  { asked: 'languages', said: [['language']], name: 'language', check: 'item-other-filter', match: 'case', listed: true },
  { asked: 'vulnerabilityClasses', said: [['vulnClass']], name: 'vulnerability class', check: 'item-other-filter', match: 'case', listed: true },
];

const SCAN_RULES: readonly Rule[] = [
  { asked: 'repositoryIds', said: [['repositoryId']], name: 'repository', check: 'item-foreign' },
  { asked: 'organizationId', said: [['organizationId']], name: 'organization', check: 'item-foreign' },
  { asked: 'scanId', said: [['scanId'], ['id']], name: 'scan', check: 'item-foreign' },
];

const RULES: Record<string, readonly Rule[]> = {
  [ISSUES_SEARCH]: ISSUE_RULES,
  [SCANS_LIST]: SCAN_RULES,
  // topIssues answers a list of issues of the status `type` asked for (spec: enum open, patched).
  [TOP_ISSUES]: [{ asked: 'type', said: [['status']], name: 'status', check: 'item-status-other', match: 'status' }],
};

function said(item: Json, path: readonly string[]): unknown {
  let v: unknown = item;
  for (const k of path) {
    if (!isObject(v)) return undefined;
    v = v[k];
  }
  return v;
}

/** What was asked, as a matcher, or undefined when the request does not ask it. */
interface Asked {
  rule: Rule;
  values: Set<string>;
  /** Lower-cased values, for `case`. */
  lower?: Set<string>;
  range?: { min?: number; max?: number };
  shown: string;
}

function askedOf(rule: Rule, body: Body): Asked | undefined {
  const v = body[rule.asked];
  if (rule.match === 'range') {
    if (!isObject(v)) return undefined;
    const range: { min?: number; max?: number } = {};
    if (typeof v.min === 'number') range.min = v.min;
    if (typeof v.max === 'number') range.max = v.max;
    if (range.min === undefined && range.max === undefined) return undefined;
    return { rule, values: new Set(), range, shown: `${range.min ?? ''}..${range.max ?? ''}` };
  }
  const list = Array.isArray(v) ? v : typeof v === 'string' || typeof v === 'number' ? [v] : undefined;
  if (!list || list.length === 0) return undefined;
  const values = new Set(list.map(String));
  return { rule, values, ...(rule.match === 'case' ? { lower: new Set([...values].map((x) => x.toLowerCase())) } : {}), shown: [...values].map((a) => quoted(a)).join(', ') };
}

/** The row an item's value is, against what was asked; undefined when it matches. */
function disagreement(a: Asked, v: unknown): CheckId | undefined {
  const { rule } = a;
  if (rule.match === 'range') {
    if (typeof v !== 'number') return rule.check;
    return (a.range!.min !== undefined && v < a.range!.min) || (a.range!.max !== undefined && v > a.range!.max) ? rule.check : undefined;
  }
  if (rule.match === 'status') {
    if (typeof v === 'string' && a.values.has(v)) return undefined;
    return typeof v === 'string' && KNOWN_STATUSES.has(v) ? 'item-status-other' : 'item-status-unknown';
  }
  if (typeof v !== 'string' && typeof v !== 'number') return rule.check;
  if (a.values.has(String(v))) return undefined;
  if (a.lower && a.lower.has(String(v).toLowerCase())) return undefined;
  return rule.check;
}

/**
 * Checks one item: the rows it disagrees with (reported), or an empty list when it matches every
 * filter it carries a field for.
 */
export type ItemScopeCheck = (item: unknown, page: number) => CheckId[];

const NONE: CheckId[] = [];

/**
 * The top-level fields of an item that itemScopeCheck reads for this request (a listing that keeps
 * only some fields of each item must keep these for the check to see what it would see whole).
 */
export function itemScopeFields(path: string, body: Body): string[] {
  const keys = new Set<string>();
  for (const rule of RULES[path] ?? []) {
    if (askedOf(rule, body)) for (const p of rule.said) keys.add(p[0]);
  }
  return [...keys];
}

/**
 * The scope check of the items of the operation at `path` for this request, or undefined when the
 * request asks nothing the items carry. Built once per listing.
 */
export function itemScopeCheck(path: string, body: Body, what: string, report: Report): ItemScopeCheck | undefined {
  const asked: Asked[] = [];
  for (const rule of RULES[path] ?? []) {
    const a = askedOf(rule, body);
    if (a) asked.push(a);
  }
  if (asked.length === 0) return undefined;
  return (item, page) => {
    if (!isObject(item)) return NONE;
    let found: CheckId[] | undefined;
    const name = () => (typeof item.id === 'string' || typeof item.id === 'number' ? `item ${quoted(String(item.id))}` : 'an item');
    for (const a of asked) {
      let shown = false;
      for (const p of a.rule.said) {
        const v = said(item, p);
        if (v === undefined || v === null) continue;
        shown = true;
        const id = disagreement(a, v);
        if (id !== undefined) {
          const value = id === 'item-status-unknown' ? spelled(v) : text(v);
          const what2 = a.rule.match === 'range' ? `${a.rule.name} ${value}, outside ${a.shown}` : `${a.rule.name} ${value}, not ${a.values.size === 1 ? 'the one' : 'one'} asked for (${a.shown})`;
          report(id, what, `page ${page} holds ${name()} of ${what2}: the service ignored the ${a.rule.asked} filter`);
          (found ??= []).push(id);
        }
        break;
      }
      if (!shown && a.rule.listed) {
        // Checked on fields the item carries: one it leaves out cannot disagree, nor show it agrees.
        report('item-filter-unshown', what, `page ${page} holds ${name()} without its ${a.rule.said[0].join('.')} (asked: ${a.rule.asked} ${a.shown}), so whether it is one the filter found cannot be shown`);
        (found ??= []).push('item-filter-unshown');
      }
    }
    return found ?? NONE;
  };
}

/**
 * One answer that is not paged by the listing engine (a read command's one call, the gate's
 * lookups): its counts (search-counts.ts) and each item of its list `items` (a listing's items under
 * its key; an answer that is itself a list, stats topIssues, holds them).
 */
export function checkAnswer(path: string, items: string | undefined, data: unknown, body: Body, what: string, report: Report, o: CountOptions & { id?: string; idAliases?: readonly string[] } = {}): void {
  checkAnswerCounts(path, data, body, what, report, o);
  const list = Array.isArray(data) ? data : items !== undefined && isObject(data) ? data[items] : undefined;
  if (!Array.isArray(list)) return;
  const inScope = itemScopeCheck(path, body, what, report);
  const page = typeof body.page === 'number' ? body.page : 1;
  for (const item of list) {
    if (!isObject(item)) {
      if (o.id !== undefined) report('item-not-record', what, `page ${page} holds an item that is not a record`);
      continue;
    }
    if (o.id !== undefined) {
      const usable = (v: unknown) => (typeof v === 'string' && v.trim() !== '') || typeof v === 'number';
      if (!usable(item[o.id])) {
        const alias = (o.idAliases ?? []).find((a) => usable(item[a]));
        if (alias !== undefined) report(path === ORGS_LIST ? 'org-id-field' : 'item-id-field', what, `page ${page} holds an item without '${o.id}' that gives '${alias}' ${quoted(String(item[alias]))}: read as its id`);
        else report('item-no-id', what, `page ${page} holds an item without a usable ${o.id}`);
      }
    }
    inScope?.(item, page);
  }
}

/**
 * The items of a listing's answer: the list under `key` (a dotted path). Inference (`items-key`): an
 * answer without it whose only list is under another key holds the items there (`scans` for
 * `codeScans`). No list, or several: there is no item to read (`top-level`, refused in every use).
 */
export function itemsOf(data: unknown, key: string, what: string, report: Report): unknown[] {
  let items: unknown = data;
  for (const k of key.split('.')) items = isObject(items) ? items[k] : undefined;
  if (Array.isArray(items)) return items;
  const lists = isObject(data) ? Object.entries(data).filter(([, v]) => Array.isArray(v)) : [];
  if (items === undefined && lists.length === 1) {
    report('items-key', what, `no '${key}' list; its one list, '${lists[0][0]}', is read as the items`);
    return lists[0][1] as unknown[];
  }
  // `"issues": null` (a Go service's nil slice) or no list at all, with a total of 0: an empty listing.
  if ((items === undefined || items === null) && lists.length === 0 && isObject(data) && data.totalCount === 0) {
    report('items-null', what, `'${key}' is ${items === null ? 'null' : 'absent'} and totalCount 0: read as no items`);
    return [];
  }
  report('top-level', what, `the response does not have the documented shape: no '${key}' list${lists.length > 1 ? ` (and ${lists.length} other lists: ${lists.map(([k]) => quoted(k)).join(', ')}, none of them known to be the items)` : ''}`, 'check the base URL; try again with --verbose');
  throw new Error('unreachable: top-level is refused in every use');
}
