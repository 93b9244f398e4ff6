/**
 * Issue search: every filter of the spec, sorting with a stable tie-break on id, paging, counts.
 * The full sorted order of all issues is cached per sort key until an issue is added or a sort key
 * changes, and the issues a filter matches until anything changes: the first search with a filter is
 * one linear pass over 100,000 issues, each further page of it a slice.
 */
import type { IssueRec, RepoRec } from './model.js';
import { CATEGORY_KEYS } from './model.js';
import type { Store } from './state.js';

export interface SearchRequest {
  page?: number;
  pageSize?: number;
  searchQuery?: string;
  severities?: { min?: number; max?: number };
  sortBy?: 'createdAt' | 'severity' | 'score';
  sortOrder?: 'asc' | 'desc';
  languages?: string[];
  vulnerabilityClasses?: string[];
  repositoryIds?: string[];
  projectId?: string;
  scanId?: string;
  codeScanTypes?: string[];
  types?: string[];
  getCounts?: boolean;
  returnAll?: boolean;
  ruleId?: string;
}

interface SearchResult {
  issues: IssueRec[];
  totalCount: number;
  totalCountAllCategories: number;
  categoryCounts?: Record<string, number>;
  currentPage: number;
  pageSize: number;
}

const DEFAULT_PAGE_SIZE = 10;

type SortKey = 'createdAt' | 'severity' | 'score';

/** All issues sorted by `key` (descending or ascending), ties by id ascending. */
export function sortedIssues(store: Store, key: SortKey, order: 'asc' | 'desc'): IssueRec[] {
  return store.cached(`sorted:${key}:${order}`, () => {
    const dir = order === 'asc' ? 1 : -1;
    return [...store.issues].sort((a, b) => (a[key] - b[key]) * dir || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }, store.orderVersion);
}

const lower = (list?: string[]) => (list && list.length ? new Set(list.map((s) => s.toLowerCase())) : undefined);

/** A predicate for every filter except `types` (the status filter, which categoryCounts ignore). */
function issueFilter(repos: Map<string, RepoRec>, req: SearchRequest): (i: IssueRec) => boolean {
  const repoIds = req.repositoryIds?.length ? new Set(req.repositoryIds) : undefined;
  const langs = lower(req.languages);
  const classes = lower(req.vulnerabilityClasses);
  const scanTypes = req.codeScanTypes?.length ? new Set(req.codeScanTypes) : undefined;
  const min = req.severities?.min;
  const max = req.severities?.max;
  const q = req.searchQuery?.trim().toLowerCase() || undefined;
  const repoNameMatches = new Set(q ? [...repos.values()].filter((r) => r.name.toLowerCase().includes(q)).map((r) => r.id) : []);
  return (i) => {
    const repo = repos.get(i.repositoryId);
    if (!repo) return false;
    if (repoIds && !repoIds.has(i.repositoryId)) return false;
    if (req.projectId && repo.projectId !== req.projectId) return false;
    if (req.scanId && i.scanId !== req.scanId) return false;
    if (req.ruleId && i.ruleId !== req.ruleId) return false;
    if (scanTypes && !scanTypes.has(i.codeScanType)) return false;
    if (min !== undefined && i.severity < min) return false;
    if (max !== undefined && i.severity > max) return false;
    if (langs && !langs.has(i.language.toLowerCase())) return false;
    if (classes && !classes.has(i.vulnClass.toLowerCase()) && !i.cwes.some((c) => classes.has(c.toLowerCase()))) return false;
    if (q && !matchesText(i, q, repoNameMatches)) return false;
    return true;
  };
}

/** Lower-cased title, file and class of each issue (none of them ever changes), built on first use. */
const haystacks = new WeakMap<IssueRec, string>();

/** Free text: id, title, file, repository name, language, class and CWEs, case-insensitive. */
function matchesText(i: IssueRec, q: string, repoNameMatches: Set<string>): boolean {
  let text = haystacks.get(i);
  if (text === undefined) haystacks.set(i, (text = `${i.generatedTitle}\n${i.affectedFile}\n${i.vulnClass}`.toLowerCase()));
  return text.includes(q)
    || i.id === q
    || repoNameMatches.has(i.repositoryId)
    || (i.language.length === q.length && i.language.toLowerCase() === q)
    || i.cwes.some((c) => c.length === q.length && c.toLowerCase() === q);
}

/** The issues a search matches, in order, before paging: what a page is cut from. */
interface Matched {
  /** Issues that pass every filter, `types` included. */
  issues: IssueRec[];
  /** How many pass every filter but `types` (`totalCountAllCategories`). */
  all: number;
  counts: Record<string, number>;
}

/**
 * Matches per repository set (the caller's organization) and filter, kept until the store changes:
 * `--all` asks for hundreds of pages with the same filters, and each page is then a slice instead of
 * a pass over every issue. A few filters are kept per organization; the oldest is dropped first.
 */
const matchCache = new WeakMap<Map<string, RepoRec>, Map<string, { version: number; value: Matched }>>();
const MATCHES_KEPT = 16;

/** Everything of a request that decides which issues match and their order (not the page). */
function filterKey(req: SearchRequest): string {
  const list = (l?: string[]) => (l && l.length ? [...l].sort() : null);
  return JSON.stringify([
    req.sortBy ?? 'score', req.sortOrder ?? 'desc', list(req.repositoryIds), req.projectId ?? null, req.scanId ?? null,
    req.ruleId ?? null, list(req.codeScanTypes), req.severities?.min ?? null, req.severities?.max ?? null,
    list(req.languages?.map((s) => s.toLowerCase())), list(req.vulnerabilityClasses?.map((s) => s.toLowerCase())),
    req.searchQuery?.trim().toLowerCase() || null, list(req.types),
  ]);
}

/** Whether the matches of `req` are kept, so that its next page is a slice. */
export function matchesKept(store: Store, repos: Map<string, RepoRec>, req: SearchRequest): boolean {
  return matchCache.get(repos)?.get(filterKey(req))?.version === store.version;
}

function matches(store: Store, repos: Map<string, RepoRec>, req: SearchRequest): Matched {
  let kept = matchCache.get(repos);
  if (!kept) matchCache.set(repos, (kept = new Map()));
  const key = filterKey(req);
  const hit = kept.get(key);
  if (hit && hit.version === store.version) return hit.value;
  const match = issueFilter(repos, req);
  const types = req.types?.length ? new Set<string>(req.types) : undefined;
  const counts: Record<string, number> = Object.fromEntries(CATEGORY_KEYS.map((k) => [k, 0]));
  const issues: IssueRec[] = [];
  let all = 0;
  for (const i of sortedIssues(store, req.sortBy ?? 'score', req.sortOrder ?? 'desc')) {
    if (!match(i)) continue;
    all++;
    counts[i.status] = (counts[i.status] ?? 0) + 1;
    if (types && !types.has(i.status)) continue;
    issues.push(i);
  }
  const value = { issues, all, counts };
  kept.delete(key);
  kept.set(key, { version: store.version, value });
  if (kept.size > MATCHES_KEPT) kept.delete(kept.keys().next().value!);
  return value;
}

/**
 * `repos` are the repositories of the caller's organization: issues of other organizations never match.
 * The counts as the store's dialects tell them (dialects.ts): over the organization (`wide-counts`),
 * without the zero ones (`sparse-counts`), or none (`no-counts`).
 */
export function searchIssues(store: Store, repos: Map<string, RepoRec>, req: SearchRequest): SearchResult {
  const page = req.page ?? 1;
  const pageSize = req.pageSize ?? DEFAULT_PAGE_SIZE;
  const m = matches(store, repos, req);
  const issues = req.returnAll ? m.issues.slice() : m.issues.slice(Math.max(0, (page - 1) * pageSize), Math.max(0, page * pageSize));
  const d = store.dialects;
  // wide-counts: every issue of the organization, whatever the filters (the one cached match of no filter).
  const counted = d.has('wide-counts') ? matches(store, repos, {}) : m;
  const counts = d.has('sparse-counts') ? Object.fromEntries(Object.entries(counted.counts).filter(([, n]) => n > 0)) : { ...counted.counts };
  return {
    issues,
    totalCount: m.issues.length,
    totalCountAllCategories: counted.all,
    ...(req.getCounts && !d.has('no-counts') ? { categoryCounts: counts } : {}),
    currentPage: req.returnAll ? 1 : page,
    pageSize: req.returnAll ? issues.length : pageSize,
  };
}
