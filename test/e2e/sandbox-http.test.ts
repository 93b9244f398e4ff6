/** The sandbox's HTTP behaviour: auth, validation, limits, bad input, control endpoint and faults. */
import { request as httpRequest } from 'node:http';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { loadAllOperations } from '../../src/operations/index.js';
import { buildRoutes } from '../../src/sandbox/router.js';
import { HttpError } from '../../src/sandbox/http-error.js';
import { jsonBytes } from '../../src/sandbox/raw-json.js';
import { tempDir } from '../helpers/temp.js';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox({ maxBodyBytes: 64 * 1024 });
});
afterAll(async () => {
  await sb?.close();
});

const SEARCH = '/api/v1/issues/search';

describe('sandbox HTTP: auth', () => {
  it('401 with an {error} naming the missing header, for each of the two', async () => {
    const none = await sb.call(SEARCH, {}, { headers: { 'content-type': 'application/json' } });
    expect(none.status).toBe(401);
    expect(none.json.error).toMatch(/X-Service-API-Token-Id/);
    const noSecret = await sb.call(SEARCH, {}, { headers: { 'content-type': 'application/json', 'x-service-api-token-id': sb.tokenId } });
    expect(noSecret.status).toBe(401);
    expect(noSecret.json.error).toMatch(/X-Service-API-Token-Secret/);
    const wrong = await sb.call(SEARCH, {}, { headers: { 'content-type': 'application/json', 'x-service-api-token-id': sb.tokenId, 'x-service-api-token-secret': 'nope' } });
    expect(wrong).toMatchObject({ status: 401, json: { error: 'invalid API token' } });
  });

  it('the CLI exits 3 on a wrong token', async () => {
    const r = await sb.run(['issues', 'search'], { env: { SVC_API_TOKEN_SECRET: 'wrong-secret' } });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/HTTP 401: invalid API token/);
  });
});

describe('sandbox HTTP: bad requests never crash it', () => {
  it('400 naming the field, with the CLI schemas', async () => {
    expect(await sb.call(SEARCH, { page: 0 })).toMatchObject({ status: 400, json: { error: expect.stringMatching(/'page'.*at least 1/) } });
    expect(await sb.call(SEARCH, { sortBy: 'name' })).toMatchObject({ status: 400, json: { error: expect.stringMatching(/'sortBy'.*createdAt, severity, score/) } });
    expect(await sb.call(SEARCH, { severities: { min: 'high' } })).toMatchObject({ status: 400, json: { error: expect.stringMatching(/'severities\.min'/) } });
    expect(await sb.call('/api/v1/issues/archive', {})).toMatchObject({ status: 400, json: { error: "missing required field 'issueId'" } });
    expect(await sb.call('/api/v1/scans/upsert-schedule', { repositoryId: sb.state.repos[0].id, executionCriteriaCrontab: '61 * * * *' }))
      .toMatchObject({ status: 400, json: { error: expect.stringMatching(/'executionCriteriaCrontab'.*minute/) } });
  });

  it('the CLI exits 5 with the sandbox message when an -F field is invalid', async () => {
    const r = await sb.run(['issues', 'search', '-F', 'pageSize=0']);
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/HTTP 400: invalid field 'pageSize'/);
  });

  it('malformed JSON, a non-object body, a wrong content type', async () => {
    expect(await sb.call(SEARCH, undefined, { raw: '{"page": 1,' })).toMatchObject({ status: 400, json: { error: expect.stringMatching(/not valid JSON/) } });
    expect(await sb.call(SEARCH, undefined, { raw: '[1,2]' })).toMatchObject({ status: 400, json: { error: 'request body must be a JSON object' } });
    const headers = { 'content-type': 'text/plain', 'x-service-api-token-id': sb.tokenId, 'x-service-api-token-secret': sb.tokenSecret };
    expect(await sb.call(SEARCH, { page: 1 }, { headers })).toMatchObject({ status: 415, json: { error: expect.stringMatching(/application\/json/) } });
  });

  it('an empty body counts as {}', async () => {
    const r = await sb.call(SEARCH, undefined, { raw: '' });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ currentPage: 1, pageSize: 10 });
  });

  it('413 above the body limit, declared or streamed', async () => {
    const big = JSON.stringify({ searchQuery: 'x'.repeat(100 * 1024) });
    expect(await sb.call(SEARCH, undefined, { raw: big })).toMatchObject({ status: 413, json: { error: expect.stringMatching(/larger than/) } });
    // Chunked, no Content-Length: the limit still holds.
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(sb.url + SEARCH, { method: 'POST', headers: { 'content-type': 'application/json', 'x-service-api-token-id': sb.tokenId, 'x-service-api-token-secret': sb.tokenSecret } }, (res) => { res.resume(); resolve(res.statusCode!); });
      req.on('error', reject);
      for (let k = 0; k < 20; k++) req.write('x'.repeat(8 * 1024));
      req.end();
    });
    expect(status).toBe(413);
    expect((await sb.call(SEARCH, {})).status).toBe(200);
  });

  it('the CLI exits 5 with the 413 message for a body over the limit', async () => {
    const file = join(tempDir('svc-sb-big-'), 'big.json');
    writeFileSync(file, JSON.stringify({ searchQuery: 'x'.repeat(100 * 1024) }));
    const r = await sb.run(['api', 'issues/search', '--input', file, '--retries', '0']);
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/HTTP 413: request body .* larger than the sandbox's limit/);
  });

  it('405 for another method on an operation path, 404 for an unknown path', async () => {
    const get = await sb.call(SEARCH, undefined, { method: 'GET' });
    expect(get).toMatchObject({ status: 405, json: { error: expect.stringMatching(/use POST/) } });
    expect(get.headers.get('allow')).toBe('POST');
    expect(await sb.call('/api/v1/issues/nope', {})).toMatchObject({ status: 404, json: { error: expect.stringMatching(/unknown path '\/api\/v1\/issues\/nope'/) } });
    expect(await sb.call('/', {})).toMatchObject({ status: 404 });
  });

  it('404 for unknown ids, and where the spec declares it', async () => {
    expect(await sb.call('/api/v1/issues/get', { issueId: 'iss_nope' })).toMatchObject({ status: 404, json: { error: "issue 'iss_nope' not found" } });
    expect(await sb.call('/api/v1/repositories/reset-scanner-settings', { repositoryIds: ['repo_nope'] })).toMatchObject({ status: 404 });
    expect(await sb.call('/api/v1/repositories/resolve-by-url', { repositoryUrl: 'https://hosta.example/x/y', vcs: 'hosta' })).toMatchObject({ status: 404 });
    expect(await sb.call(SEARCH, { organizationId: 'org_nope' })).toMatchObject({ status: 404, json: { error: "organization 'org_nope' not found" } });
    const cli = await sb.run(['repos', 'reset-scanner-settings', '--repository-ids', 'repo_nope', '--yes']);
    expect(cli.code).toBe(4);
  });
});

describe('sandbox HTTP: odd bodies on every operation', () => {
  const bodies = (): unknown[] => {
    const repo = sb.state.repos.find((r) => r.organizationId === sb.organizationId)!.id;
    const issue = sb.state.issues[0].id;
    return [
      {}, { organizationId: 5 }, { organizationId: 'org_nope' }, { repositoryId: repo, issueId: issue, repositoryIds: [repo] },
      { repositoryId: 'x', issueId: 'x', repositoryIds: ['x'] }, { repos: 'x' }, { repos: [null, 3] }, { repos: [{ repositoryUrl: 7 }] },
      { repositoryIds: [null] }, { repositoryIds: 'x' }, { severity: 'x', page: -1 }, { name: '', email: 'x' }, { appId: 1234, installationId: {} },
      { startDate: '2026-13-01', endDate: 'x', severities: ['x'], timeGranularity: 'year' }, { severities: { min: 10, max: 0 } },
      { issueId: issue, severity: 1e9 }, { repositoryUrl: '', vcs: 'nope' }, { executionCriteriaCrontab: '', timezone: '' }, { limit: 'x', type: 'closed' },
    ];
  };

  it('never answer 5xx: only 200, 400 or 404 with an {error}', async () => {
    // Every body on every operation, through the routes the server answers with (in-process: the
    // handler's answer or its HttpError is what the server turns into a status; anything else
    // thrown, or an answer that cannot be written as JSON, would be its 500).
    const routes = buildRoutes(await loadAllOperations(), sb.state, { scanDurationMs: 60_000, patchDelayMs: 60_000 });
    const odd = bodies();
    for (const [path, route] of routes) {
      for (const body of odd) {
        const what = `${path} ${JSON.stringify(body)}`;
        try {
          jsonBytes(route.handle(JSON.parse(JSON.stringify(body))));
        } catch (err) {
          if (!(err instanceof HttpError)) expect.fail(`${what} -> 500: ${(err as Error).stack}`);
          if (![400, 404].includes(err.status) || typeof err.message !== 'string') expect.fail(`${what} -> ${err.status} ${err.message}`);
        }
      }
    }
    // And over HTTP, one of the bodies on each operation in turn (each body on several operations).
    const ops = [...routes.keys()];
    const answers = await Promise.all(ops.map((path, k) => sb.call(path, odd[k % odd.length])));
    for (const [k, r] of answers.entries()) {
      expect([200, 400, 404], `${ops[k]} ${JSON.stringify(odd[k % odd.length])} -> ${r.status} ${r.text}`).toContain(r.status);
      if (r.status !== 200) expect(typeof r.json.error, r.text).toBe('string');
    }
    expect(ops.length).toBeGreaterThan(odd.length);
  });
});

describe('sandbox HTTP: control endpoint and faults', () => {
  it('latency: the answer comes after the client gave up (exit 6)', async () => {
    sb.setFaults({ latencyMs: 3000 });
    try {
      const cli = await sb.run(['stats', 'summary', '--timeout', '0.3', '--retries', '0']);
      expect(cli.code).toBe(6);
      expect(cli.stderr).toMatch(/no response from http:\/\/127\.0\.0\.1:\d+ within/);
    } finally {
      sb.setFaults({ latencyMs: 0 });
    }
  });

  it('/__sandbox/health and /__sandbox/faults (read, change, reject bad values)', async () => {
    expect(await sb.call('/__sandbox/health', undefined, { method: 'GET' })).toMatchObject({ status: 200, json: { ok: true, issues: expect.any(Number) } });
    expect(await sb.call('/__sandbox/faults', { fault: 'teapot' })).toMatchObject({ status: 400, json: { error: expect.stringMatching(/fault must be one of/) } });
    expect(await sb.call('/__sandbox/faults', { fault: '503' })).toMatchObject({ status: 200, json: { fault: '503' } });
    const r = await sb.call(SEARCH, {});
    expect(r.status).toBe(503);
    expect(r.headers.get('retry-after')).toBe('1');
    expect(await sb.call('/__sandbox/faults', { fault: null })).toMatchObject({ status: 200, json: { fault: null } });
    expect((await sb.call(SEARCH, {})).status).toBe(200);
  });

  it('429 with Retry-After, and the CLI exits 6 (retry later) without retries', async () => {
    sb.setFaults({ fault: '429' });
    try {
      const r = await sb.call(SEARCH, {});
      expect(r.status).toBe(429);
      expect(r.headers.get('retry-after')).toBe('1');
      const cli = await sb.run(['issues', 'search', '--retries', '0']);
      expect(cli.code).toBe(6);
      expect(cli.stderr).toMatch(/rate-limited: retry later \(HTTP 429, Retry-After: 1 s\)/);
    } finally {
      sb.setFaults({ fault: null });
    }
  });

  it('500 fails before the request is handled: the CLI exits 6 and nothing changed', async () => {
    const issue = sb.state.issues.find((i) => i.status === 'open')!;
    sb.setFaults({ fault: '500' });
    try {
      const cli = await sb.run(['issues', 'archive', issue.id, '--retries', '0']);
      expect(cli.code).toBe(6);
      expect(cli.stderr).toMatch(/HTTP 500/);
    } finally {
      sb.setFaults({ fault: null });
    }
    expect(issue.status).toBe('open');
  });

  it('reset: the connection is destroyed (exit 6)', async () => {
    sb.setFaults({ fault: 'reset' });
    try {
      await expect(sb.call(SEARCH, {})).rejects.toThrow();
      expect((await sb.run(['issues', 'search', '--retries', '0'])).code).toBe(6);
    } finally {
      sb.setFaults({ fault: null });
    }
  });

  it('invalid-json (exit 7) and truncated (exit 6 or 7) spoil the answer of a handled request', async () => {
    const issue = sb.state.issues.find((i) => i.status === 'open')!;
    sb.setFaults({ fault: 'invalid-json' });
    try {
      const r = await sb.call(SEARCH, {});
      expect(r.status).toBe(200);
      expect(r.json).toBeUndefined();
      const cli = await sb.run(['issues', 'archive', issue.id, '--retries', '0']);
      expect(cli.code).toBe(7);
      expect(issue.status).toBe('archived');
      sb.setFaults({ fault: 'truncated' });
      await expect(sb.call(SEARCH, {})).rejects.toThrow();
      expect([6, 7]).toContain((await sb.run(['issues', 'search', '--retries', '0'])).code);
    } finally {
      sb.setFaults({ fault: null });
    }
  });

  it('slow-body: headers come, the body stalls past the client timeout (exit 6)', async () => {
    sb.setFaults({ fault: 'slow-body' });
    try {
      const cli = await sb.run(['stats', 'summary', '--timeout', '0.3', '--retries', '0']);
      expect(cli.code).toBe(6);
      expect(cli.stderr).toMatch(/stalled|timeout|within/i);
    } finally {
      sb.setFaults({ fault: null });
    }
  });

  it('fail-rate is seeded: the same seed fails the same requests', async () => {
    const statuses = async () => {
      const other = await startTestSandbox({ seed: 3, repos: 2, issues: 10, failRate: 0.5 });
      try {
        const out: number[] = [];
        for (let k = 0; k < 12; k++) out.push((await other.call('/api/v1/orgs/list', {})).status);
        return out;
      } finally {
        await other.close();
      }
    };
    const a = await statuses();
    expect(a).toEqual(await statuses());
    expect(a.filter((s) => s === 200).length).toBeGreaterThan(0);
    expect(a.filter((s) => s !== 200).every((s) => [429, 500, 502, 503].includes(s))).toBe(true);
    expect(a.some((s) => s !== 200)).toBe(true);
  });
});
