/**
 * Every page of a listing, in page order, checked against the total the service reports.
 *
 * Page 1 is fetched alone to learn the total; the remaining pages are then fetched with at most
 * `concurrency` requests in flight and handed out strictly in page order. A page is held only until
 * it is consumed, so memory stays flat however long the listing is. Each page is one call of `call`
 * (the HTTP client retries a failed read on its own), so a failing page is asked for again, never
 * the whole listing.
 *
 * Fail closed: a page that is not an object with an item list, a total that changes between pages,
 * another count of the listing that changes between pages (`pagination.counts`, page-counts.ts: an
 * issue archived and another created leave the total as it was), a page with more or fewer items
 * than the total implies, or an item id seen twice (the order shifted, so another item was skipped)
 * ends the listing with a ResponseError (exit 7).
 *
 * What no page shows cannot be seen: a change that leaves every count as it was (one issue archived
 * while another is reopened), or one made while a service reports no counts beside the total, may
 * move an item past a page boundary unseen. No re-read at the end is made for it: with the counts
 * on every page, a change before the last page was served is already seen, and one after it hides
 * nothing; without them, a re-read of page 1 would see only changes within page 1.
 */
import { setMaxListeners } from 'node:events';
import type { Pagination } from '../operations/types.js';
import { ResponseError } from '../http/api-errors.js';
import { answerValue } from '../core/sanitize.js';
import { getPath } from '../output/field-paths.js';
import { numberFlag } from '../request/number-flag.js';
import { IdSet } from './id-set.js';
import { checkAnswerCounts, itemScopeCheck, type ItemScopeCheck } from './answer-checks.js';
import { countChange, pageCounts, shownCount } from './page-counts.js';

export interface PagerOptions {
  /** Names the listing in messages, e.g. "issues search --all". */
  what: string;
  pagination: Pagination;
  /** Request body of every page; page and page size are set per page. */
  body: Record<string, unknown>;
  pageSize: number;
  concurrency: number;
  /** Fail when the service does not report a total (the gate needs one); else read until a short page. */
  requireTotal: boolean;
  /**
   * Fail when a listing of more than one page reports none of `pagination.counts` on page 1 (the gate:
   * without them a change while it is read that keeps the total cannot be seen).
   */
  requireCounts?: boolean;
  call(body: Record<string, unknown>): Promise<unknown>;
  /**
   * The operation's path: each page's counts and each item's scope are checked against the request
   * (answer-checks.ts) where that operation has such checks.
   */
  path?: string;
  /** Parses what `call` answered, when the page's turn comes (page-decode.ts); as it is by default. */
  decode?(answer: unknown, page: number): unknown;
  warn?(line: string): void;
}

interface Page {
  page: number;
  items: unknown[];
  /** The whole response of the page. */
  data: unknown;
}

interface Read extends Page {
  total?: number;
  reportedPageSize?: number;
}

const RUN_AGAIN = 'the listing is incomplete, so nothing was reported as complete; run again';

export class Pager {
  /** Items handed out so far. */
  fetched = 0;
  /** The total the service reported (undefined until page 1 is read, or when it reports none). */
  total: number | undefined;
  private readonly ids = new IdSet();
  private readonly inScope: ItemScopeCheck | undefined;
  /** Page 1's values of the listing's other counts (pagination.counts), which every page repeats. */
  private firstCounts: unknown[] = [];

  constructor(private readonly o: PagerOptions) {
    this.inScope = o.path === undefined ? undefined : itemScopeCheck(o.path, o.body, o.what);
  }

  async *pages(): AsyncGenerator<Page> {
    const o = this.o;
    let size = o.pageSize;
    const first = this.read(await this.fetch(1, size), 1, size);
    this.firstCounts = pageCounts(first.data, o.pagination.counts ?? []);
    if (first.total === undefined) {
      if (o.requireTotal) {
        throw new ResponseError(`${o.what}: the service did not report ${o.pagination.total}, so the count cannot be checked`, undefined, 'svc fails closed without a total; check the base URL and the service version');
      }
      o.warn?.(`${o.what}: the service reported no ${o.pagination.total}; reading pages until a short one, without a completeness check`);
      yield* this.sequential(first, size);
      return;
    }
    const total = first.total;
    this.total = total;
    const expectFirst = Math.min(size, total);
    if (first.items.length !== expectFirst) {
      const capped = first.reportedPageSize;
      if (first.items.length < expectFirst && capped !== undefined && capped === first.items.length && capped > 0 && capped < size) {
        o.warn?.(`${o.what}: the service caps the page size at ${capped} (asked for ${size})`);
        size = capped;
      } else {
        throw this.sizeError(1, first.items.length, expectFirst, total, size);
      }
    }
    const last = Math.ceil(total / size);
    if (o.requireCounts && last > 1 && (o.pagination.counts ?? []).length > 0 && this.firstCounts.every((v) => v === undefined || v === null)) {
      throw new ResponseError(
        `${o.what}: the service reported no ${o.pagination.counts!.join(' nor ')} beside ${o.pagination.total} (asked for with getCounts), so a change while the ${last} pages are read could not be seen`,
        undefined, `svc fails closed without them (a listing of one page needs none); check the base URL and the service version`,
      );
    }
    this.account(first);

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
        throw new ResponseError(
          `${o.what}: the listing changed while it was read (${o.pagination.total} was ${total} on page 1, ${r.total ?? 'missing'} on page ${page})`,
          undefined, RUN_AGAIN,
        );
      }
      this.sameCounts(r);
      const expected = page < last ? size : total - (last - 1) * size;
      if (r.items.length !== expected) throw this.sizeError(page, r.items.length, expected, total, size);
      this.account(r);
      yield r;
    }
    if (this.fetched !== total) {
      throw new ResponseError(`${o.what}: fetched ${this.fetched} items but the service reported ${total}`, undefined, RUN_AGAIN);
    }
  }

  /** Without a total: page after page until one holds fewer than `size` items. */
  private async *sequential(first: Read, size: number): AsyncGenerator<Page> {
    this.account(first);
    yield first;
    let prev = first;
    for (let page = 2; prev.items.length >= size && prev.items.length > 0; page++) {
      const r = this.read(await this.fetch(page, size), page, size);
      this.sameCounts(r);
      if (r.items.length > 0 && JSON.stringify(r.items[0]) === JSON.stringify(prev.items[0])) {
        throw new ResponseError(`${this.o.what}: page ${page} starts with the same item as page ${page - 1}; the service seems to ignore '${this.o.pagination.page}'`, undefined, 'use --page and --page-size instead of --all');
      }
      this.account(r);
      yield r;
      prev = r;
    }
  }

  /** The page's counts are page 1's, or the listing changed while it was read (exit 7). */
  private sameCounts(r: Read): void {
    const fields = this.o.pagination.counts;
    if (!fields) return;
    const d = countChange(this.firstCounts, r.data, fields);
    if (d) {
      throw new ResponseError(
        `${this.o.what}: the listing changed while it was read (${d.path} was ${shownCount(d.before)} on page 1, ${shownCount(d.after)} on page ${r.page}), so an item may have been missed`,
        undefined, RUN_AGAIN,
      );
    }
  }

  private fetch(page: number, size: number): Promise<unknown> {
    const p = this.o.pagination;
    return this.o.call({ ...this.o.body, [p.page]: page, [p.pageSize]: size });
  }

  private read(answer: unknown, page: number, size: number): Read {
    const p = this.o.pagination;
    const data = this.o.decode ? this.o.decode(answer, page) : answer;
    const items = getPath(data, p.items);
    if (!Array.isArray(items)) {
      throw new ResponseError(`${this.o.what}: page ${page} has no '${p.items}' list`, undefined, 'check the base URL; try again with --verbose');
    }
    const t = getPath(data, p.total);
    let total: number | undefined;
    if (t !== undefined && t !== null) {
      if (typeof t !== 'number' || !Number.isInteger(t) || t < 0) {
        throw new ResponseError(`${this.o.what}: page ${page} has ${p.total} ${answerValue(t)}, not a whole number`);
      }
      total = t;
    }
    if (this.o.path !== undefined) {
      checkAnswerCounts(this.o.path, data, { ...this.o.body, [p.page]: page, [p.pageSize]: size }, `${this.o.what}: page ${page}`);
      const inScope = this.inScope;
      if (inScope) for (const item of items) inScope(item, page);
    }
    const ps = getPath(data, p.pageSize);
    const reportedPageSize = typeof ps === 'number' && Number.isInteger(ps) ? ps : undefined;
    return { page, items, data, total, reportedPageSize };
  }

  private account(r: Read): void {
    const idField = this.o.pagination.id;
    if (idField) {
      for (const item of r.items) {
        const id = item !== null && typeof item === 'object' ? (item as Record<string, unknown>)[idField] : undefined;
        if (typeof id !== 'string' && typeof id !== 'number') continue;
        const key = String(id);
        const seenOn = this.ids.add(key, r.page);
        if (seenOn !== undefined) {
          throw new ResponseError(
            `${this.o.what}: item ${key} came twice (pages ${seenOn} and ${r.page}): the order shifted between pages, so another item was missed`,
            undefined, `${RUN_AGAIN}; sort by a field that does not change while reading (the default, createdAt ascending)`,
          );
        }
      }
    }
    this.fetched += r.items.length;
  }

  private sizeError(page: number, got: number, expected: number, total: number, size: number): ResponseError {
    return new ResponseError(
      `${this.o.what}: page ${page} held ${got} items, expected ${expected} (${this.o.pagination.total} ${total}, page size ${size}); ${got < expected ? 'items are missing' : 'the pages overlap'}`,
      undefined, got < expected && page === 1 ? `the service may cap the page size: try --page-size ${got || 100}` : RUN_AGAIN,
    );
  }
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
