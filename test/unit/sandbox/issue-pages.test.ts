/** Search pages over HTTP: made-once issue JSON is the same as a fresh one, and a change shows at once. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../src/sandbox/index.js';
import { matchesKept } from '../../../src/sandbox/search.js';

let sb: Sandbox;
const call = async (op: string, body: unknown = {}) => {
  const res = await fetch(`${sb.url}/api/v1/${op}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-service-api-token-id': sb.tokenId, 'x-service-api-token-secret': sb.tokenSecret },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  expect(Number(res.headers.get('content-length'))).toBe(Buffer.byteLength(text));
  return { status: res.status, text, json: JSON.parse(text) };
};

beforeAll(async () => { sb = await startSandbox({ port: 0, seed: 3, repos: 3, issues: 200 }); });
afterAll(() => sb.close());

describe('search pages', () => {
  it('a page served twice is the same text, and each issue equals issues get', async () => {
    const body = { pageSize: 20, page: 2, sortBy: 'createdAt', sortOrder: 'asc', getCounts: true };
    const a = await call('issues/search', body);
    const b = await call('issues/search', body);
    expect(a.status).toBe(200);
    expect(b.text).toBe(a.text);
    expect(a.json).toMatchObject({ currentPage: 2, pageSize: 20 });
    expect(a.json.issues).toHaveLength(20);
    expect(a.json.categoryCounts.open).toBeGreaterThan(0);
    for (const issue of a.json.issues.slice(0, 3)) {
      expect((await call('issues/get', { issueId: issue.id })).json).toEqual(issue);
    }
  });

  it('shows a change at once: archived status, new severity', async () => {
    const page = (await call('issues/search', { pageSize: 5, types: ['open'] })).json.issues;
    const id = page[0].id;
    await call('issues/archive', { issueId: id });
    await call('issues/update-severity', { issueId: page[1].id, severity: 0.5 });
    const all = (await call('issues/search', { returnAll: true })).json.issues;
    expect(all.find((i: { id: string }) => i.id === id).status).toBe('archived');
    expect(all.find((i: { id: string }) => i.id === page[1].id).severity).toBe(0.5);
    expect((await call('issues/search', { pageSize: 500, types: ['open'] })).json.issues.map((i: { id: string }) => i.id)).not.toContain(id);
  });

  it('makes every issue\'s JSON in the background after start-up, and says so in its health', async () => {
    const own = await startSandbox({ port: 0, seed: 4, repos: 2, issues: 2000 });
    try {
      let health: { warmed: boolean } = { warmed: false };
      for (let i = 0; i < 200 && !health.warmed; i++) {
        health = await (await fetch(`${own.url}/__sandbox/health`)).json();
        if (!health.warmed) await new Promise((r) => setTimeout(r, 20));
      }
      expect(health.warmed).toBe(true);
      // ... and has sorted the issues in the orders listings ask for, before any search.
      const cache = (own.state as unknown as { cache: Map<string, unknown> }).cache;
      expect([...cache.keys()]).toEqual(expect.arrayContaining(['sorted:createdAt:asc', 'sorted:score:desc']));
      // ... and found each organization's issues in the order `--all` asks for.
      for (const org of own.state.orgs) {
        expect(matchesKept(own.state, own.state.orgRepos(org.id), { sortBy: 'createdAt', sortOrder: 'asc', page: 7, pageSize: 500 }), org.id).toBe(true);
      }
      expect(matchesKept(own.state, own.state.orgRepos(own.state.orgs[0].id), { sortBy: 'createdAt', sortOrder: 'desc' })).toBe(false);
    } finally {
      await own.close();
    }
  });
});
