import { describe, expect, it } from 'vitest';
import { Pager, parseConcurrency, type PagerOptions } from '../../../src/listing/all-pages.js';
import type { Pagination } from '../../../src/operations/types.js';
import { ResponseError } from '../../../src/http/api-errors.js';
import { CliError, UsageError } from '../../../src/core/errors.js';
import { Doubts } from '../../../src/answers/doubts.js';

const P: Pagination = { page: 'page', pageSize: 'pageSize', items: 'issues', total: 'totalCount', maxPageSize: 500, id: 'id' };

interface Served { calls: number[]; maxInFlight: number }

/** A listing of `n` items served with small random delays, so pages complete out of order. */
function listing(n: number, tweak: (page: number, res: { issues: unknown[]; totalCount?: number; pageSize?: number }) => void = () => {}) {
  const served: Served = { calls: [], maxInFlight: 0 };
  let inFlight = 0;
  const call = async (body: Record<string, unknown>) => {
    const page = body.page as number;
    const size = body.pageSize as number;
    served.calls.push(page);
    inFlight++;
    served.maxInFlight = Math.max(served.maxInFlight, inFlight);
    await new Promise((r) => setTimeout(r, (page * 7) % 5));
    inFlight--;
    const issues = [];
    for (let i = (page - 1) * size; i < Math.min(n, page * size); i++) issues.push({ id: `i${i}` });
    const res: { issues: unknown[]; totalCount?: number; pageSize?: number } = { issues, totalCount: n, pageSize: size };
    tweak(page, res);
    return res;
  };
  return { served, call };
}

function pager(call: PagerOptions['call'], o: Partial<PagerOptions> = {}) {
  return new Pager({ what: 'test --all', pagination: P, body: { q: 1 }, pageSize: 10, concurrency: 3, call, ...o });
}

async function drain(p: Pager): Promise<{ ids: string[]; pages: number[] }> {
  const ids: string[] = [];
  const pages: number[] = [];
  for await (const page of p.pages()) {
    pages.push(page.page);
    for (const item of page.items) ids.push((item as { id: string }).id);
  }
  return { ids, pages };
}

async function failure(p: Pager): Promise<CliError> {
  const err = await drain(p).then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(CliError);
  expect((err as CliError).exitCode).toBe(7);
  return err as CliError;
}

describe('Pager', () => {
  it('hands out every item exactly once, in page order, with bounded concurrency', async () => {
    const { served, call } = listing(95);
    const p = pager(call);
    const { ids, pages } = await drain(p);
    expect(ids).toEqual(Array.from({ length: 95 }, (_, i) => `i${i}`));
    expect(pages).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect([...served.calls].sort((a, b) => a - b)).toEqual(pages);
    expect(served.calls[0]).toBe(1);
    expect(served.maxInFlight).toBeLessThanOrEqual(3);
    expect(served.maxInFlight).toBeGreaterThan(1);
    expect(p.fetched).toBe(95);
    expect(p.total).toBe(95);
  });

  it('sends the body with page and page size on every request', async () => {
    const bodies: Record<string, unknown>[] = [];
    const { call } = listing(25);
    await drain(pager(async (b) => { bodies.push(b); return call(b); }));
    expect(bodies.map((b) => [b.q, b.page, b.pageSize])).toEqual([[1, 1, 10], [1, 2, 10], [1, 3, 10]]);
  });

  it('an empty listing is one request and no items', async () => {
    const { served, call } = listing(0);
    expect((await drain(pager(call))).ids).toEqual([]);
    expect(served.calls).toEqual([1]);
  });

  it('an exact multiple of the page size ends on a full page', async () => {
    const { served, call } = listing(30);
    expect((await drain(pager(call))).ids).toHaveLength(30);
    expect(served.calls.sort()).toEqual([1, 2, 3]);
  });

  it('fails with exit 7 when the total changes between pages', async () => {
    const { call } = listing(50, (page, res) => { if (page === 4) res.totalCount = 51; });
    const err = await failure(pager(call));
    expect(err.message).toMatch(/changed while it was read.*50 on page 1, 51 on page 4/);
  });

  describe('the listing\'s other counts (pagination.counts) are the same on every page', () => {
    const C: Pagination = { ...P, counts: ['totalCountAllCategories', 'categoryCounts'] };
    const counts = (all: number, archived: number) => ({ totalCountAllCategories: all, categoryCounts: { open: 50, archived } });
    const withCounts = (change: (page: number) => Record<string, unknown>) =>
      listing(50, (page, res) => { Object.assign(res, counts(50, 0), change(page)); });

    it('an issue archived and another created (totalCount as it was): exit 7, whichever count shows it', async () => {
      const all = withCounts((page) => (page >= 3 ? { totalCountAllCategories: 51 } : {}));
      expect((await failure(pager(all.call, { pagination: C }))).message)
        .toMatch(/test --all: the listing changed while it was read \(totalCountAllCategories was 50 on page 1, 51 on page 3\), so an item may have been missed/);
      const cat = withCounts((page) => (page === 5 ? { categoryCounts: { open: 50, archived: 1 } } : {}));
      expect((await failure(pager(cat.call, { pagination: C }))).message).toMatch(/categoryCounts.archived was 0 on page 1, 1 on page 5/);
      // A status count that appears or goes away is a change too; so is a count dropped from a page.
      const added = withCounts((page) => (page === 2 ? { categoryCounts: { open: 50, archived: 0, silenced: 1 } } : {}));
      expect((await failure(pager(added.call, { pagination: C }))).message).toMatch(/categoryCounts.silenced was missing on page 1, 1 on page 2/);
      const dropped = withCounts((page) => (page === 4 ? { totalCountAllCategories: undefined } : {}));
      expect((await failure(pager(dropped.call, { pagination: C }))).message).toMatch(/totalCountAllCategories was 50 on page 1, missing on page 4/);
    });

    it('also without a total (pages read until a short one)', async () => {
      const { call } = listing(25, (page, res) => { delete res.totalCount; Object.assign(res, counts(25, page === 2 ? 1 : 0)); });
      expect((await failure(pager(call, { pagination: C }))).message).toMatch(/categoryCounts.archived was 0 on page 1, 1 on page 2/);
    });

    it('counts that stay, in any key order, or that no page gives, pass; a listing without counts is not compared', async () => {
      const same = withCounts((page) => (page % 2 === 0 ? { categoryCounts: { archived: 0, open: 50 } } : {}));
      expect((await drain(pager(same.call, { pagination: C }))).ids).toHaveLength(50);
      const none = listing(50);
      expect((await drain(pager(none.call, { pagination: C }))).ids).toHaveLength(50);
      const changing = withCounts((page) => ({ totalCountAllCategories: 50 + page }));
      expect((await drain(pager(changing.call))).ids).toHaveLength(50);
    });
  });

  it('fails with exit 7 when a page is cut short (truncated listing)', async () => {
    const { call } = listing(50, (_page, res) => { res.totalCount = 60; });
    const err = await failure(pager(call));
    expect(err.message).toMatch(/page 6 held 0 items, expected 10.*items are missing/);
  });

  it('fails with exit 7 when a middle page holds too few or too many items', async () => {
    const short = listing(50, (page, res) => { if (page === 2) res.issues.pop(); });
    expect((await failure(pager(short.call))).message).toMatch(/page 2 held 9 items, expected 10/);
    const long = listing(50, (page, res) => { if (page === 3) res.issues.push({ id: 'extra' }); });
    expect((await failure(pager(long.call))).message).toMatch(/page 3 held 11 items, expected 10.*overlap/);
  });

  it('fails with exit 7 when an item comes twice (the order shifted, another was missed)', async () => {
    const { call } = listing(50, (page, res) => { if (page === 3) res.issues[0] = { id: 'i19' }; });
    const err = await failure(pager(call));
    expect(err.message).toMatch(/item 'i19' came twice \(pages 2 and 3\)/);
  });

  it('fails with exit 7 on a page without an item list; a total that is not a whole number is read as none (a warning)', async () => {
    const noList = listing(30, (page, res) => { if (page === 2) (res as Record<string, unknown>).issues = 'x'; });
    expect((await failure(pager(noList.call))).message).toMatch(/page 2: the response does not have the documented shape: no 'issues' list/);
    const doubts = new Doubts('all');
    const badTotal = listing(30, (_page, res) => { (res as Record<string, unknown>).totalCount = '30'; });
    expect((await drain(pager(badTotal.call, { report: doubts.report }))).ids).toHaveLength(30);
    expect(doubts.found().map((k) => [k.id, k.action])).toEqual([['no-total', 'warn']]);
    expect(doubts.found()[0].details.join()).toMatch(/totalCount "30", not a whole number/);
  });

  it('without a total: --all reads until a short page (a warning); the gate reads it too and reaches no PASS on it', async () => {
    const { call } = listing(25, (_page, res) => { delete res.totalCount; });
    for (const use of ['all', 'gate'] as const) {
      const doubts = new Doubts(use);
      const { ids } = await drain(pager(call, { report: doubts.report }));
      expect(ids).toHaveLength(25);
      expect(doubts.found().map((k) => [k.id, k.action])).toEqual([['no-total', use === 'gate' ? 'stop' : 'warn']]);
    }
  });

  it('without a total, a service that ignores the page number is caught', async () => {
    const call = async () => ({ issues: Array.from({ length: 10 }, (_, i) => ({ n: i })) });
    const err = await failure(pager(call));
    expect(err.message).toMatch(/ignore 'page'/);
  });

  it('adopts a smaller page size the service reports on page 1', async () => {
    const calls: number[] = [];
    const call = async (b: Record<string, unknown>) => {
      const size = Math.min(4, b.pageSize as number);
      calls.push(b.pageSize as number);
      const from = ((b.page as number) - 1) * size;
      const issues = [];
      for (let i = from; i < Math.min(10, from + size); i++) issues.push({ id: `i${i}` });
      return { issues, totalCount: 10, pageSize: size };
    };
    const doubts = new Doubts('all');
    const { ids } = await drain(pager(call, { report: doubts.report }));
    expect(ids).toEqual(Array.from({ length: 10 }, (_, i) => `i${i}`));
    expect(calls).toEqual([10, 4, 4]);
    expect(doubts.take().join()).toMatch(/caps the page size at 4/);
  });

  it('a failing page request fails the listing, and no other page is asked for twice', async () => {
    const { served, call } = listing(50);
    const err = await drain(pager(async (b) => {
      if (b.page === 3) throw new ResponseError('boom');
      return call(b);
    })).then(() => undefined, (e: unknown) => e);
    expect((err as Error).message).toBe('boom');
    expect(new Set(served.calls).size).toBe(served.calls.length);
  });

  it('parses --concurrency', () => {
    expect(parseConcurrency(undefined)).toBe(4);
    expect(parseConcurrency('16')).toBe(16);
    for (const bad of ['0', '17', '2.5', 'x']) expect(() => parseConcurrency(bad)).toThrow(UsageError);
  });
});

describe('an item without its id field', () => {
  // The warning read "without an scanId": the article was "an" for every field name.
  for (const [idField, said] of [['scanId', 'without a scanId'], ['id', 'without an id'], ['issueId', 'without an issueId']] as const) {
    it(`names the field with its article: "${said}"`, async () => {
      const doubts = new Doubts('all');
      const call = async () => ({ issues: [{ repositoryId: 'r1' }], totalCount: 1 });
      await drain(pager(call, { report: doubts.report, pagination: { ...P, id: idField } }));
      expect(doubts.found().map((k) => k.id)).toEqual(['item-no-id']);
      expect(doubts.found()[0].details.join()).toBe(`page 1 holds an item ${said}`);
    });
  }
});
