/**
 * Every operation of the table, in-process through main(), against the fake server on loopback: the
 * right path, POST, both token headers, JSON content type, User-Agent, and exactly the body fields
 * its flags name.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandName, loadAllOperations, type Operation } from '../../src/operations/index.js';
import { flagSpecs, type FlagSpec } from '../../src/request/flags.js';
import { runCli, type CliResult } from '../helpers/host.js';
import { startFakeServer, type FakeServer } from '../helpers/fake-server.js';
import { RESPONSES, responseFor } from '../fixtures/responses.js';
import { expectedPaths } from '../helpers/spec.js';
import { tempDir } from '../helpers/temp.js';

const ops = await loadAllOperations();

/** The canned answer of a listing, for the page and the scan the request asks for. */
function inScope(path: string, answer: unknown, body: Record<string, unknown>): unknown {
  if (path === '/api/v1/issues/search') return { ...(answer as object), currentPage: body.returnAll === true ? 1 : body.page ?? 1 };
  if (path === '/api/v1/scans/list' && typeof body.scanId === 'string') {
    const a = answer as { codeScans: Array<Record<string, unknown>> };
    return { ...a, codeScans: a.codeScans.map((s) => ({ ...s, scanId: body.scanId })) };
  }
  if (path === '/api/v1/stats/topIssues' && typeof body.type === 'string') return (answer as Array<Record<string, unknown>>).map((i) => ({ ...i, status: body.type }));
  return answer;
}
const TOKEN_ID = 'tok-id-1234';
const SECRET = 'sekret-value-must-not-leak-0001';
let server: FakeServer;

/** A sample value for a flag and the value it must become in the body. */
function sample(spec: FlagSpec, i: number): { args: string[]; value: unknown } {
  const f = `--${spec.flag}`;
  switch (spec.kind) {
    case 'boolean': return i % 2 === 0 ? { args: [f], value: true } : { args: [`--no-${spec.flag}`], value: false };
    case 'integer': { const n = Math.max(spec.min ?? 0, 3); return { args: [f, String(n)], value: n }; }
    case 'number': return { args: [f, '2.5'], value: 2.5 };
    case 'enum': { const v = spec.choices![spec.choices!.length - 1]; return { args: [f, v], value: v }; }
    case 'array':
      if (spec.itemKind === 'enum') return { args: [f, spec.choices![0], f, spec.choices![1]], value: spec.choices!.slice(0, 2) };
      if (spec.itemKind === 'string') return { args: [f, 'a-1,b-2'], value: ['a-1', 'b-2'] };
      return { args: [f, '1,2'], value: [1, 2] };
    case 'json': {
      const v = [{ repositoryUrl: 'https://hostc.example/team/api', repositoryName: 'api', defaultBranch: 'main' }];
      return { args: [f, JSON.stringify(v)], value: v };
    }
    default: {
      const v = /date/i.test(spec.flag) ? '2026-01-31' : spec.flag === 'execution-criteria-crontab' ? '0 3 * * 1' : spec.flag === 'timezone' ? 'Europe/Berlin' : /^repository-ids?$/.test(spec.flag) ? `v_${spec.flag}` /* an id (a name would be looked up: src/request/repository-names.ts) */ : `v-${spec.flag}`;
      return { args: [f, v], value: v };
    }
  }
}

function invocation(op: Operation): { args: string[]; body: Record<string, unknown> } {
  const { name } = commandName(op);
  const args = [op.group, name];
  const body: Record<string, unknown> = {};
  flagSpecs(op.request.shape).forEach((spec, i) => {
    const s = sample(spec, i);
    if (op.positional && spec.path.length === 1 && spec.path[0] === op.positional) {
      args.push(String(s.value));
    } else args.push(...s.args);
    let cur = body;
    for (const k of spec.path.slice(0, -1)) cur = (cur[k] ??= {}) as Record<string, unknown>;
    cur[spec.path[spec.path.length - 1]] = s.value;
  });
  if (op.destructive) args.push('--yes');
  return { args, body };
}

async function inBatches<T, R>(items: T[], size: number, fn: (t: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += size) out.push(...(await Promise.all(items.slice(i, i + size).map(fn))));
  return out;
}

const env = () => ({ SVC_BASE_URL: server.url, SVC_API_TOKEN_ID: TOKEN_ID, SVC_API_TOKEN_SECRET: SECRET });
let results: Map<string, { result: CliResult; body: Record<string, unknown>; args: string[] }>;

beforeAll(async () => {
  server = await startFakeServer({ fallback: { json: { ok: true } } });
  // A listing's answer agrees with the page and scope asked for (svc refuses one that does not: issue 21).
  for (const op of ops) server.stub(op.path, (req) => ({ json: inScope(op.path, responseFor(op), req.body ?? {}) }));
  results = new Map();
  await inBatches(ops, 8, async (op) => {
    const { args, body } = invocation(op);
    results.set(op.path, { result: await runCli(args, { env: env() }), body, args });
  });
}, 120_000);
afterAll(() => server.close());

describe('every operation over real HTTP', () => {
  it('ran every operation of the spec and the field notes', () => {
    expect([...results.keys()].sort()).toEqual(expectedPaths() ?? ops.map((o) => o.path).sort());
    expect(server.requests).toHaveLength(ops.length);
  });

  for (const op of ops) {
    it(`${op.group} ${commandName(op).name} -> POST ${op.path}`, () => {
      const { result, body, args } = results.get(op.path)!;
      expect(result.stderr, args.join(' ')).toBe('');
      expect(result.code).toBe(0);
      const reqs = server.requests.filter((r) => r.path === op.path);
      expect(reqs).toHaveLength(1);
      const req = reqs[0];
      expect(req.method).toBe('POST');
      expect(req.headers['x-service-api-token-id']).toBe(TOKEN_ID);
      expect(req.headers['x-service-api-token-secret']).toBe(SECRET);
      expect(req.headers['content-type']).toBe('application/json');
      expect(req.headers['user-agent']).toMatch(/^svc\/\d+\.\d+\.\d+ node\/\d+\.\d+\.\d+ \(\w+\)$/);
      expect(req.body).toEqual(body);
      expect(JSON.parse(result.stdout)).toEqual(inScope(op.path, responseFor(op), req.body ?? {}));
    });
  }
});

describe('API spellings and organization defaults', () => {
  it('a response whose fields do not have the documented shape is shown as it came, with a warning; one of another type is no success (exit 7)', async () => {
    server.stub('/api/v1/issues/get', { json: { title: 'no id here' } });
    const r = await runCli(['issues', 'get', 'iss_9', '-o', 'json'], { env: env() });
    server.stub('/api/v1/issues/get', { json: [{ id: 'iss_9' }] });
    const list = await runCli(['issues', 'get', 'iss_9'], { env: env() });
    server.stub('/api/v1/issues/get', { json: RESPONSES['/api/v1/issues/get'] });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ title: 'no id here' });
    expect(r.stderr).toMatch(/^warning: issues get: id expected a string \[shape, the spec; shown as it came/);
    expect(list.code).toBe(7);
    expect(list.stdout).toBe('');
    expect(list.stderr).toMatch(/^svc: error: issues get: the response does not have the documented shape: the body expected an object \(got a list\); check the base URL/);
  });

  it('accepts the API spelling as an alias and the repositories group alias', async () => {
    const a = await runCli(['stats', 'issuesBySeverity', '--org', 'o-1'], { env: env() });
    const b = await runCli(['repositories', 'list', '--no-get-counts'], { env: { ...env(), SVC_ORGANIZATION_ID: 'o-env' } });
    expect([a.code, b.code]).toEqual([0, 0]);
    const bodies = server.requests.slice(-2).map((r) => [r.path, r.body]);
    expect(bodies).toEqual([
      ['/api/v1/stats/issuesBySeverity', { organizationId: 'o-1' }],
      ['/api/v1/repositories/list', { getCounts: false, organizationId: 'o-env' }],
    ]);
  });

  it('takes the organization from --org over SVC_ORGANIZATION_ID over the profile, and a flag over all', async () => {
    const cfg = tempDir('svc-test-cfg-');
    const base = { ...env(), SVC_CONFIG_DIR: cfg };
    expect((await runCli(['config', 'set', 'organization', 'o-profile'], { env: base })).code).toBe(0);
    const seen: unknown[] = [];
    for (const [args, extra] of [
      [['stats', 'summary'], {}],
      [['stats', 'summary'], { SVC_ORGANIZATION_ID: 'o-env' }],
      [['stats', 'summary', '--org', 'o-flag'], { SVC_ORGANIZATION_ID: 'o-env' }],
      [['stats', 'summary', '--org', 'o-flag', '--organization-id', 'o-field'], {}],
    ] as const) {
      const r = await runCli([...args], { env: { ...base, ...extra } });
      expect(r.code).toBe(0);
      seen.push((server.requests.at(-1)!.body as Record<string, unknown>).organizationId);
    }
    expect(seen).toEqual(['o-profile', 'o-env', 'o-flag', 'o-field']);
  });

  it('never fills the organization of a delete from the environment', async () => {
    const before = server.requests.length;
    const r = await runCli(['orgs', 'delete', '--yes'], { env: { ...env(), SVC_ORGANIZATION_ID: 'o-env' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/missing organizationId/);
    expect(server.requests.length).toBe(before);
  });

  it('lets -F/-f/--input send any field, typed flags winning', async () => {
    const r = await runCli(['issues', 'search', '--input', '-', '-F', 'pageSize=50', '-F', 'extra={"a":[1]}', '-f', 'searchQuery=007', '--page', '2'], {
      env: env(), stdin: '{"page": 9, "sortBy": "createdAt", "newField": true}',
    });
    expect(r.code).toBe(0);
    expect(server.requests.at(-1)!.body).toEqual({ page: 2, pageSize: 50, sortBy: 'createdAt', newField: true, extra: { a: [1] }, searchQuery: '007' });
  });

  it('svc api calls any path with the default organization', async () => {
    const r = await runCli(['api', 'sca/vulnerabilities/search', '-F', 'page=1', '--org', 'o-9'], { env: env() });
    const r2 = await runCli(['api', '/api/v1/rules/list'], { env: env() });
    expect([r.code, r2.code]).toEqual([0, 0]);
    const [a, b] = server.requests.slice(-2);
    expect([a.path, a.body]).toEqual(['/api/v1/sca/vulnerabilities/search', { page: 1, organizationId: 'o-9' }]);
    expect(b.path).toBe('/api/v1/rules/list');
    const bad = await runCli(['api', '../etc/passwd'], { env: env() });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/invalid API path/);
  });
});
