/**
 * Every page of a listing, in page order, checked against the total the service reports.
 *
 * Page 1 is fetched alone to learn the total; the remaining pages are then fetched with at most
 * `concurrency` requests in flight and handed out strictly in page order. A page is held only until
 * it is consumed, so memory stays flat however long the listing is. Each page is one call of `call`
 * (the HTTP client retries a failed read on its own), so a failing page is asked for again, never
 * the whole listing.
 *
 * Every check reports to `report` by its row of answers/checks.ts, and the run's use decides what
 * follows (answers/doubts.ts). A listing its own answers prove incomplete or doubled is refused
 * wherever every item is promised (--all, the gate, bulk): a total that changes between pages
 * (`total-changed`), another count of the listing that changes (`counts-changed`, page-counts.ts: an
 * issue archived and another created leave the total as it was), a page with more or fewer items
 * than the total implies (`page-short`), an item id seen twice (`id-twice`: the order shifted, so
 * another item was skipped). Without a total (`no-total`) pages are read until a short one; the gate
 * reaches no PASS on such a listing, nor on one of several pages without counts beside the total
 * (`no-counts`). Each page's counts and each item (a record, with an id, of the scope asked for)
 * are checked too; the items' doubts are handed out with the page (`doubted`), for the gate and bulk
 * actions to decide on each.
 *
 * The page size is the service's where its answer states another (a cap below the size asked, a
 * minimum above it: `page-size-capped`). A listing that fits one page whose total is its length is
 * followed by page 2 (the spec does not say that totalCount counts more than the page; inference):
 * empty, page 1 again, or a 4xx, the listing is whole; new items, `past-total`, read on without a
 * total; a total grown since page 1, `total-changed`. The gate holds the refusals that say the
 * listing is incomplete until the page that shows it is counted (`holdRefusals`): a breaking issue
 * on it proves the FAIL.
 *
 * What no page shows cannot be seen: a change that leaves every count as it was (one issue archived
 * while another is reopened), or one made while a service reports no counts beside the total, may
 * move an item past a page boundary unseen. No re-read at the end is made for it: with the counts
 * on every page, a change before the last page was served is already seen, and one after it hides
 * nothing; without them, a re-read of page 1 would see only changes within page 1.
 */
import { setMaxListeners } from 'node:events';
import type { Pagination } from '../operations/types.js';
import { answerValue, quoted } from '../core/sanitize.js';
import { getPath } from '../output/field-paths.js';
import { numberFlag } from '../request/number-flag.js';
import { IdSet } from './id-set.js';
import type { CheckId } from '../answers/checks.js';
import { AnswerRefusedError, Doubts, type Report } from '../answers/doubts.js';
import { ApiError } from '../http/api-errors.js';
import { checkAnswerCounts, type CountOptions } from '../answers/search-counts.js';
import { itemScopeCheck, itemsOf, type ItemScopeCheck } from '../answers/item-scope.js';
import { countChange, pageCounts, shownCount } from './page-counts.js';

export interface PagerOptions {
  /** Names the listing in messages, e.g. "issues search --all". */
  what: string;
  pagination: Pagination;
  /** Request body of every page; page and page size are set per page. */
  body: Record<string, unknown>;
  pageSize: number;
  concurrency: number;
  call(body: Record<string, unknown>): Promise<unknown>;
  /**
   * The operation's path: each page's counts and each item's scope are checked against the request
   * (answers/search-counts.ts, item-scope.ts) where that operation has such checks.
   */
  path?: string;
  /** Parses what `call` answered, when the page's turn comes (page-decode.ts); as it is by default. */
  decode?(answer: unknown, page: number): unknown;
  /** Where the checks report (the run's doubts); by default those of --all (every refusal refused). */
  report?: Report;
  /** How the counts are checked (the gate's --counts wide). */
  counts?: CountOptions;
  /**
   * An item that names itself by an alias of its id (pagination.idAliases, `item-id-field`) gets it as
   * its id: for the gate and bulk actions, which own their items; a read writes items as they came.
   */
  adoptId?: boolean;
  /**
   * The gate: a refusal found on a page (the listing proven incomplete or doubled: its total changed,
   * the page's length is wrong) is thrown after that page is handed out, not before, so that a
   * breaking issue the page holds still proves the FAIL (a proven FAIL stands). An item already
   * handed out on an earlier page is marked `id-twice` in `doubted` (counted once).
   */
  holdRefusals?: boolean;
}

/** The refusals holdRefusals holds until the page is handed out: what a page says of the listing, not of its items. */
const HELD: ReadonlySet<CheckId> = new Set<CheckId>(['total-changed', 'counts-changed', 'page-short', 'over-page-size', 'over-total', 'id-twice', 'page-repeated']);

/** 4xx answers to the page after a whole one that say something else than "no such page": the token, a timeout, the rate. */
const NOT_PAST_THE_END: ReadonlySet<number> = new Set([401, 403, 408, 429]);
/** pageTwo(): the service has no page 2. */
const PAST_THE_END = Symbol('past the end');

interface Page {
  page: number;
  items: unknown[];
  /** The whole response of the page. */
  data: unknown;
  /** The items (by index) a check doubted, and the rows it found (item-scope.ts, the item checks). */
  doubted?: Map<number, CheckId[]>;
}

interface Read extends Page {
  total?: number;
  reportedPageSize?: number;
}

export class Pager {
  /** Items handed out so far. */
  fetched = 0;
  /** The total the service reported (undefined until page 1 is read, or when it reports none). */
  total: number | undefined;
  /** Pages read. */
  pagesRead = 0;
  /** Page 1's counts beside its items (pagination.counts: `{ categoryCounts, ... }`), once read. */
  firstData: Record<string, unknown> = {};
  private readonly ids = new IdSet();
  private readonly inScope: ItemScopeCheck | undefined;
  /** Page 1's values of the listing's other counts (pagination.counts), which every page repeats. */
  private firstCounts: unknown[] = [];
  private readonly report: Report;
  /** With holdRefusals: the first refusal of the page being read, thrown once the page is handed out. */
  private held: unknown;

  constructor(private readonly o: PagerOptions) {
    const base = o.report ?? new Doubts('all').report;
    this.report = !o.holdRefusals ? base : (id, what, detail, hint) => {
      try {
        base(id, what, detail, hint);
      } catch (err) {
        // Only the listing's completeness is held: a page that cannot be read is refused at once.
        if (!(err instanceof AnswerRefusedError) || !HELD.has(id)) throw err;
        this.held ??= err;
      }
    };
    this.inScope = o.path === undefined ? undefined : itemScopeCheck(o.path, o.body, o.what, this.report);
  }

  async *pages(): AsyncGenerator<Page> {
    const o = this.o;
    let size = o.pageSize;
    const first = this.read(await this.fetch(1, size), 1, size);
    this.firstCounts = pageCounts(first.data, o.pagination.counts ?? []);
    (o.pagination.counts ?? []).forEach((f, i) => { this.firstData[f] = this.firstCounts[i]; });
    if (first.total === undefined) {
      this.report('no-total', o.what, `the service reported no ${o.pagination.total}: pages are read until a short one, without a completeness check`);
      const stated = first.reportedPageSize;
      if (stated !== undefined && stated > 0 && stated !== size && first.items.length === stated) {
        // The service's page size, stated, and page 1 full at it: read on at it (a short page ends it).
        this.report('page-size-capped', o.what, stated < size ? `the service caps the page size at ${stated} (asked for ${size})` : `the service answers pages of ${stated} (asked for ${size})`);
        yield* this.sequential(first, stated, 1);
        return;
      }
      if (first.items.length === 0 || first.items.length >= size || (stated !== undefined && stated !== size)) {
        yield* this.sequential(first, size, 1);
        return;
      }
      // A short page 1 and nothing to say whether it is the last: page 2 at its length tells (empty,
      // page 1 again or a 4xx: it was; more items: a cap the service does not state, read on at it).
      this.account(first);
      yield first;
      this.throwHeld();
      yield* this.pastShortFirst(first);
      return;
    }
    const total = first.total;
    this.total = total;
    const expectFirst = Math.min(size, total);
    if (first.items.length !== expectFirst) {
      // The answer's pageSize says the service pages by another size (a cap below the size asked, or
      // a minimum above it), and page 1 holds just that: read on at its size, numbering pages by it.
      const stated = first.reportedPageSize;
      if (stated !== undefined && stated > 0 && stated !== size && first.items.length === Math.min(stated, total)) {
        this.report('page-size-capped', o.what, stated < size ? `the service caps the page size at ${stated} (asked for ${size})` : `the service answers pages of ${stated} (asked for ${size})`);
        size = stated;
      } else if ((stated === undefined || stated === size) && first.items.length > 0 && first.items.length < expectFirst) {
        // Fewer than asked, with no other size stated: a cap the service does not name (inference).
        // Page 1 starts at the first item at any size, so the rest is read at its length; a service
        // that pages by the size asked and leaves items out shows as page-short or id-twice there.
        this.report('page-cap-unstated', o.what, `page 1 held ${first.items.length} of ${total} items (asked for ${size} a page): the service seems to cap the page size at ${first.items.length}; the rest is read at that size`);
        size = first.items.length;
      } else {
        this.sizeError(1, first.items.length, expectFirst, total, size);
      }
    }
    const last = Math.ceil(total / size);
    if (last > 1) this.countsBeside(last);
    // One page holds the whole listing: its ids, to tell page 2 (read below) repeating it.
    // (Only when every item has an id: page 2 repeating page 1 is told by them.)
    const ids = last === 1 && first.items.length > 0 ? first.items.map((x) => this.idOf(x)) : [];
    const single = ids.length > 0 && ids.every((id) => id !== undefined) ? new Set(ids as string[]) : undefined;
    this.account(first);
    if (this.held) {
      yield first;
      this.throwHeld();
    }

    const firstId = first.items.length > 0 ? this.idOf(first.items[0]) : undefined;
    const inflight = new Map<number, Promise<unknown>>();
    let next = 2;
    const launch = () => {
      while (next <= last && inflight.size < o.concurrency) {
        const p = this.fetch(next, size);
        p.catch(() => {}); // observed when its turn comes; never an unhandled rejection
        inflight.set(next, p);
        next++;
      }
    };
    launch();
    yield first;
    for (let page = 2; page <= last; page++) {
      launch();
      const data = await inflight.get(page)!;
      inflight.delete(page);
      const r = this.read(data, page, size);
      if (r.total !== total) {
        this.report('total-changed', o.what, `the listing changed while it was read (${o.pagination.total} was ${total} on page 1, ${r.total ?? 'missing'} on page ${page})`);
      }
      this.sameCounts(r);
      const expected = page < last ? size : total - (last - 1) * size;
      if (r.items.length !== expected) this.sizeError(page, r.items.length, expected, total, size);
      // A page that starts with page 1's first item: the service ignores the page number (said as
      // such, not as an order that shifted; both refused).
      const head = r.items.length > 0 ? this.idOf(r.items[0]) : undefined;
      if (head !== undefined && head === firstId) {
        this.report('page-repeated', o.what, `page ${page} starts with the same item as page 1 ('${head}'); the service seems to ignore '${o.pagination.page}'`, 'use --page and --page-size instead of --all');
      }
      this.account(r);
      yield r;
      this.throwHeld();
    }
    if (this.fetched !== total) {
      this.report('page-short', o.what, `fetched ${this.fetched} items but the service reported ${total}`);
      this.throwHeld();
      return;
    }
    // One page, and totalCount is its length: the spec does not say that totalCount counts the whole
    // listing rather than the page (inference), and a service may cap the page without saying so, so
    // page 2 is asked for too (one request more). Empty, or page 1 again (a service that answers past
    // its last page with it): the total holds, and nothing is said of that page. New items: the
    // listing is read on as one without a total. (A total above a page's length counts more than
    // the page: no doubt, no request.)
    if (single === undefined) return;
    // Asked at the size asked for: a service that caps it numbers its pages by its cap.
    const data = await this.pageTwo(size);
    if (data === PAST_THE_END) return;
    // Its total: page 1's, 0 (nothing past the end), none, or its own length (a total of the page,
    // with new items: past-total below); another says the listing changed since page 1 (an issue
    // opened: it may be the one not read), whatever the page holds.
    const later = getPath(data, o.pagination.total);
    const peeked = peekItems(data, o.pagination.items);
    const repeats = peeked !== undefined && peeked.every((x) => { const id = this.idOf(x); return id !== undefined && single.has(id); });
    if (typeof later === 'number' && later !== 0 && later !== total && !(peeked !== undefined && !repeats && later === peeked.length)) {
      // (Held by the gate, which counts the new items first: sequential() throws it after the page.)
      this.report('total-changed', o.what, `the listing changed while it was read (${o.pagination.total} was ${total} on page 1, ${later} on page 2)`);
      if (repeats) this.throwHeld();
    }
    if (repeats) return;
    const after = this.readData(data, 2, size);
    if (after.items.length === 0) return;
    this.report('past-total', o.what, `page 2 holds ${after.items.length} more item${after.items.length === 1 ? '' : 's'} after the ${total} that ${o.pagination.total} gives: it does not count the whole listing; pages are read until a short one, without a completeness check`);
    const capped = first.reportedPageSize;
    if (capped !== undefined && capped === first.items.length && capped < size) {
      this.report('page-size-capped', o.what, `the service caps the page size at ${capped} (asked for ${size})`);
      size = capped;
    }
    this.total = undefined;
    yield* this.sequential(after, size, 2);
  }

  /**
   * Page 2 asked to tell whether page 1 was the whole listing, decoded; PAST_THE_END for a 4xx (404 or
   * 400 "page out of range": a service without a page 2, the listing is whole).
   */
  private async pageTwo(size: number): Promise<unknown> {
    let answer: unknown;
    try {
      answer = await this.fetch(2, size);
    } catch (err) {
      if (err instanceof ApiError && err.status !== undefined && err.status >= 400 && err.status < 500 && !NOT_PAST_THE_END.has(err.status)) return PAST_THE_END;
      throw err;
    }
    return this.o.decode ? this.o.decode(answer, 2) : answer;
  }

  /**
   * A listing without a total whose page 1 was shorter than asked: page 2 asked at page 1's length.
   * A service without a cap has nothing there; one that caps without saying so has the next items.
   */
  private async *pastShortFirst(first: Read): AsyncGenerator<Page> {
    const size = first.items.length;
    const data = await this.pageTwo(size);
    if (data === PAST_THE_END) return;
    const peeked = peekItems(data, this.o.pagination.items);
    if (peeked === undefined || peeked.length === 0) return;
    const seen = new Set(first.items.map((x) => this.idOf(x)));
    if (peeked.every((x) => { const id = this.idOf(x); return id !== undefined && seen.has(id); })) return;
    this.report('page-cap-unstated', this.o.what, `page 1 held ${size} items (asked for ${this.o.pageSize} a page) and page 2 at ${size} a page holds more: the service seems to cap the page size at ${size}; the rest is read at that size`);
    this.countsBeside(2);
    const r = this.readData(data, 2, size);
    this.sameCounts(r);
    yield* this.sequential(r, size, 2);
  }

  /** With holdRefusals: the refusal held while the page was read, now that the page is handed out. */
  private throwHeld(): void {
    const held = this.held;
    if (held === undefined) return;
    this.held = undefined;
    throw held;
  }

  /** A listing of `pages` pages without counts beside its total (the gate reaches no PASS: a change while reading could not be seen). */
  private countsBeside(pages: number): void {
    const counts = this.o.pagination.counts ?? [];
    if (counts.length === 0 || !this.firstCounts.every((v) => v === undefined || v === null)) return;
    this.report('no-counts', this.o.what, `the service reported no ${counts.join(' nor ')} beside ${this.o.pagination.total} (asked for with getCounts), so a change while the ${pages} pages are read could not be seen`);
  }

  /** Without a total: page after page until one holds fewer than `size` items (`first` is page `at`). */
  private async *sequential(first: Read, size: number, at: number): AsyncGenerator<Page> {
    this.account(first);
    yield first;
    this.throwHeld();
    let prev = first;
    for (let page = at + 1; prev.items.length >= size && prev.items.length > 0; page++) {
      const r = this.read(await this.fetch(page, size), page, size);
      if (page === 2) this.countsBeside(2);
      this.sameCounts(r);
      if (r.items.length > 0 && JSON.stringify(r.items[0]) === JSON.stringify(prev.items[0])) {
        this.report('page-repeated', this.o.what, `page ${page} starts with the same item as page ${page - 1}; the service seems to ignore '${this.o.pagination.page}'`, 'use --page and --page-size instead of --all');
      }
      this.account(r);
      yield r;
      this.throwHeld();
      prev = r;
    }
  }

  /** The page's counts are page 1's, or the listing changed while it was read. */
  private sameCounts(r: Read): void {
    const fields = this.o.pagination.counts;
    if (!fields) return;
    const d = countChange(this.firstCounts, r.data, fields);
    if (d) {
      this.report('counts-changed', this.o.what, `the listing changed while it was read (${d.path} was ${shownCount(d.before)} on page 1, ${shownCount(d.after)} on page ${r.page}), so an item may have been missed`);
    }
  }

  private fetch(page: number, size: number): Promise<unknown> {
    const p = this.o.pagination;
    return this.o.call({ ...this.o.body, [p.page]: page, [p.pageSize]: size });
  }

  private read(answer: unknown, page: number, size: number): Read {
    return this.readData(this.o.decode ? this.o.decode(answer, page) : answer, page, size);
  }

  /** A page already decoded (read: decode, then this). */
  private readData(data: unknown, page: number, size: number): Read {
    const p = this.o.pagination;
    this.pagesRead++;
    const items = itemsOf(data, p.items, `${this.o.what}: page ${page}`, this.report);
    const t = getPath(data, p.total);
    let total: number | undefined;
    if (t !== undefined && t !== null) {
      if (typeof t !== 'number' || !Number.isInteger(t) || t < 0) {
        this.report('no-total', this.o.what, `page ${page} has ${p.total} ${answerValue(t)}, not a whole number: it is not used`);
      } else {
        total = t;
      }
    }
    const r: Read = { page, items, data, total };
    if (this.o.path !== undefined) {
      checkAnswerCounts(this.o.path, data, { ...this.o.body, [p.page]: page, [p.pageSize]: size }, `${this.o.what}: page ${page}`, this.report, this.o.counts);
    }
    this.checkItems(r);
    const ps = getPath(data, p.pageSize);
    if (typeof ps === 'number' && Number.isInteger(ps)) r.reportedPageSize = ps;
    return r;
  }

  /** Each item: a record, with an id (where the listing has one), of the scope asked for. */
  private checkItems(r: Read): void {
    const idField = this.o.pagination.id;
    const inScope = this.inScope;
    for (let i = 0; i < r.items.length; i++) {
      const item = r.items[i];
      let found: CheckId[] | undefined;
      if (item === null || typeof item !== 'object' || Array.isArray(item)) {
        this.report('item-not-record', this.o.what, `page ${r.page} holds an item that is not a record (${answerValue(item).slice(0, 40)})`);
        found = ['item-not-record'];
      } else {
        if (idField) {
          const rec = item as Record<string, unknown>;
          const id = rec[idField];
          if (!usableId(id)) {
            const alias = (this.o.pagination.idAliases ?? []).find((a) => usableId(rec[a]));
            if (alias !== undefined) {
              this.report('item-id-field', this.o.what, `page ${r.page} holds an item without '${idField}' that gives '${alias}' ${quoted(String(rec[alias]))}: read as its id`);
              if (this.o.adoptId) rec[idField] = rec[alias];
            } else {
              this.report('item-no-id', this.o.what, `page ${r.page} holds an item without ${id === undefined ? `${/^[aeiou]/i.test(idField) ? 'an' : 'a'} ${idField}` : `a usable ${idField} (${answerValue(id).slice(0, 40)})`}`);
              found = ['item-no-id'];
            }
          }
        }
        if (inScope) {
          const ids = inScope(item, r.page);
          if (ids.length > 0) found = found ? [...found, ...ids] : ids;
        }
      }
      if (found) (r.doubted ??= new Map()).set(i, found);
    }
  }

  /** An item's id (or its alias's), as text; undefined for an item without one. */
  private idOf(item: unknown): string | undefined {
    const idField = this.o.pagination.id;
    if (!idField || item === null || typeof item !== 'object') return undefined;
    const rec = item as Record<string, unknown>;
    let id = rec[idField];
    if (!usableId(id)) id = (this.o.pagination.idAliases ?? []).map((a) => rec[a]).find(usableId);
    return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
  }

  private account(r: Read): void {
    if (this.o.pagination.id) {
      for (let i = 0; i < r.items.length; i++) {
        const key = this.idOf(r.items[i]);
        if (key === undefined) continue;
        const seenOn = this.ids.add(key, r.page);
        if (seenOn !== undefined) {
          const marks = (r.doubted ??= new Map()).get(i) ?? [];
          r.doubted.set(i, [...marks, 'id-twice']);
          this.report('id-twice', this.o.what, `item ${quoted(key)} came twice (pages ${seenOn} and ${r.page}): the order shifted between pages, so another item was missed`,
            'the listing is incomplete, so nothing was reported as complete; run again; sort by a field that does not change while reading (the default, createdAt ascending)');
        }
      }
    }
    this.fetched += r.items.length;
  }

  private sizeError(page: number, got: number, expected: number, total: number, size: number): void {
    const id: CheckId = got > size ? 'over-page-size' : got > total ? 'over-total' : 'page-short';
    this.report(id, this.o.what,
      `page ${page} held ${got} items, expected ${expected} (${this.o.pagination.total} ${total}, page size ${size}); ${got < expected ? 'items are missing' : 'the pages overlap'}`,
      got < expected && page === 1 ? `the service may cap the page size: try --page-size ${got || 100}` : undefined,
    );
  }
}

/** The items of a page as itemsOf finds them (under the key, or the one list), without reporting; undefined when it finds none. */
function peekItems(data: unknown, key: string): unknown[] | undefined {
  const items = getPath(data, key);
  if (Array.isArray(items)) return items;
  if (items !== undefined || data === null || typeof data !== 'object') return undefined;
  const lists = Object.values(data).filter(Array.isArray);
  return lists.length === 1 ? lists[0] : undefined;
}

/** An id an item can be named by: a string that is not blank, or a number. */
function usableId(id: unknown): boolean {
  return (typeof id === 'string' && id.trim() !== '') || typeof id === 'number';
}

/** `--concurrency`: a whole number from 1 to 16 (default 4). */
const DEFAULT_CONCURRENCY = 4;
export function parseConcurrency(raw: unknown): number {
  return numberFlag(raw, { flag: '--concurrency', whole: true, min: 1, max: 16 }, DEFAULT_CONCURRENCY);
}

/** Each request in flight listens to the interrupt signal: allow that many listeners without a warning. */
export function allowListeners(signal: AbortSignal, concurrency: number): void {
  setMaxListeners(Math.max(10, concurrency + 10), signal);
}
