/** Each failure class ends with its documented exit code and one clear stderr line. */
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/host.js';
import { useFakeServer, type Reply } from '../helpers/fake-server.js';

const SECRET = 'exit-code-secret-value-42';
// Each test sees its own requests; a stub it leaves unused, or a request nobody stubbed, fails it.
const server = useFakeServer();

const env = (extra: Record<string, string> = {}) => ({ SVC_BASE_URL: server.url, SVC_API_TOKEN_ID: 'tid', SVC_API_TOKEN_SECRET: SECRET, ...extra });

function expectOneLine(stderr: string): string {
  const lines = stderr.split('\n').filter(Boolean);
  expect(lines, stderr).toHaveLength(1);
  expect(stderr).not.toMatch(/\n\s+at /);
  expect(stderr).not.toContain(SECRET);
  return lines[0];
}

const cases: Array<{ name: string; reply: Reply; code: number; message: RegExp; args?: string[] }> = [
  { name: '400 with {error}', reply: { status: 400, json: { error: 'pageSize must be at most 500' } }, code: 5, message: /HTTP 400: pageSize must be at most 500/ },
  { name: '400 with a nested error object', reply: { status: 400, json: { error: { message: 'bad field', code: 'E_FIELD', requestId: 'req-7' } } }, code: 5, message: /bad field, code E_FIELD, request req-7/ },
  { name: '401', reply: { status: 401, json: { error: 'invalid token' } }, code: 3, message: /HTTP 401: invalid token.*svc auth/ },
  { name: '403', reply: { status: 403, text: 'forbidden' }, code: 3, message: /HTTP 403: forbidden/ },
  { name: '404', reply: { status: 404, json: { error: 'issue not found' } }, code: 4, message: /HTTP 404: issue not found/ },
  { name: '422', reply: { status: 422, json: { message: 'unprocessable' } }, code: 5, message: /HTTP 422: unprocessable/ },
  { name: '429 after retries', reply: { status: 429, json: { error: 'slow down' }, headers: { 'retry-after': '0' } }, code: 6, message: /rate-limited: retry later \(HTTP 429, Retry-After: 0 s\): slow down/ },
  { name: '500', reply: { status: 500, json: { error: 'boom' } }, code: 6, message: /HTTP 500: boom/ },
  { name: '503 with an HTML body', reply: { status: 503, text: '<html><body>Service Unavailable</body></html>' }, code: 6, message: /HTTP 503/ },
  { name: 'a 200 that is not JSON', reply: { text: '<html>login page</html>', headers: { 'content-type': 'text/html' } }, code: 7, message: /not valid JSON \(text\/html/ },
  { name: 'a timeout', reply: { json: { ok: true }, delayMs: 3000 }, code: 6, message: /no response from http:\/\/127\.0\.0\.1:\d+ within 0\.5 s \(--timeout 0\.5\)/, args: ['--timeout', '0.5'] },
];

describe('exit codes of API failures', () => {
  for (const c of cases) {
    it(`${c.name} -> exit ${c.code}`, async () => {
      const path = `/api/v1/issues/get`;
      server.stub(path, c.reply);
      const r = await runCli(['issues', 'get', 'iss_1', '--retries', '0', ...(c.args ?? [])], { env: env() });
      expect(r.code).toBe(c.code);
      expect(r.stdout).toBe('');
      expect(expectOneLine(r.stderr)).toMatch(c.message);
    });
  }

  it('an unreachable server -> exit 6', async () => {
    const r = await runCli(['orgs', 'list', '--retries', '0'], { env: env({ SVC_BASE_URL: 'http://127.0.0.1:9' }) });
    expect(r.code).toBe(6);
    expect(expectOneLine(r.stderr)).toMatch(/cannot reach http:\/\/127\.0\.0\.1:9 \(ECONNREFUSED\)/);
  });

  it('shows the stack only with --debug', async () => {
    server.stub('/api/v1/issues/get', { status: 500, json: { error: 'boom' } });
    const r = await runCli(['issues', 'get', 'iss_1', '--retries', '0', '--debug'], { env: env() });
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/\n\s+at /);
    expect(r.stderr).not.toContain(SECRET);
  });
});

describe('exit codes of local problems (nothing is sent)', () => {
  const local: Array<{ name: string; args: string[]; env?: Record<string, string | undefined>; code: number; message: RegExp }> = [
    { name: 'unknown flag', args: ['issues', 'search', '--bogus'], code: 2, message: /unknown option '--bogus'/ },
    { name: 'bad enum', args: ['issues', 'search', '--sort-by', 'size'], code: 2, message: /Allowed choices are createdAt, severity, score/ },
    { name: 'bad list enum', args: ['issues', 'search', '--types', 'open,bogus'], code: 2, message: /--types.*must be one of/ },
    { name: '--page 0', args: ['issues', 'search', '--page', '0'], code: 2, message: /invalid value for --page: must be at least 1 \(got 0\)/ },
    { name: 'non-numeric number', args: ['issues', 'search', '--page-size', 'ten'], code: 2, message: /--page-size expects an integer, got 'ten'/ },
    { name: 'malformed --input JSON', args: ['issues', 'search', '--input', '-'], code: 2, message: /--input \(stdin\) is not valid JSON/ },
    { name: 'bad date', args: ['stats', 'time-saved', '--start-date', '31.01.2026'], code: 2, message: /invalid value for --start-date/ },
    { name: 'missing required id', args: ['issues', 'get'], code: 2, message: /missing issueId: give ISSUE_ID, or --issue-id/ },
    { name: 'unknown command', args: ['isues', 'search'], code: 2, message: /unknown command 'isues' \(did you mean 'svc issues'\?\)/ },
    { name: 'unknown operation', args: ['issues', 'serch'], code: 2, message: /did you mean 'svc issues search'\?/ },
    { name: 'missing base URL', args: ['orgs', 'list'], env: { SVC_BASE_URL: undefined }, code: 2, message: /no API base URL is set; pass --base-url/ },
    { name: 'bad base URL', args: ['orgs', 'list', '--base-url', 'not a url'], code: 2, message: /invalid base URL 'not a url'/ },
    { name: 'no credentials', args: ['orgs', 'list'], env: { SVC_API_TOKEN_ID: undefined, SVC_API_TOKEN_SECRET: undefined }, code: 3, message: /not logged in.*svc auth login/ },
    { name: 'half-set credentials', args: ['orgs', 'list'], env: { SVC_API_TOKEN_ID: undefined }, code: 3, message: /SVC_API_TOKEN_ID is not set, but SVC_API_TOKEN_SECRET is/ },
    { name: 'plain http to a remote host', args: ['orgs', 'list', '--base-url', 'http://api.example.com'], code: 2, message: /refusing to send API tokens over plain http/ },
    { name: 'destructive without --yes off a terminal', args: ['repos', 'delete', 'repo_1'], code: 2, message: /needs --yes when not run on a terminal/ },
    { name: 'bad --timeout', args: ['orgs', 'list', '--timeout', '-3'], code: 2, message: /--timeout expects seconds/ },
    { name: 'bad output format', args: ['orgs', 'list', '-o', 'xml'], code: 2, message: /Allowed choices are table, json, ndjson, csv/ },
  ];
  for (const c of local) {
    it(`${c.name} -> exit ${c.code}`, async () => {
      const before = server.requests.length;
      const r = await runCli(c.args, { env: env(c.env as Record<string, string>), stdin: c.name.includes('--input') ? '{"page": ' : '' });
      expect(r.code).toBe(c.code);
      expect(expectOneLine(r.stderr)).toMatch(c.message);
      expect(server.requests.length).toBe(before);
    });
  }
});

describe('retries', () => {
  it('retries a read after a 500 and succeeds', async () => {
    let n = 0;
    server.stub('/api/v1/orgs/list', (_req, res) => {
      n++;
      res.writeHead(n === 1 ? 500 : 200, { 'content-type': 'application/json', 'retry-after': '0' });
      res.end(n === 1 ? '{"error":"transient"}' : '[{"id":"o1","name":"A"}]');
    });
    const r = await runCli(['orgs', 'list'], { env: env() });
    expect(r.code).toBe(0);
    expect(n).toBe(2);
    expect(JSON.parse(r.stdout)).toEqual([{ id: 'o1', name: 'A' }]);
    expect(r.stderr).toMatch(/HTTP 500: transient; retrying/);
  });

  it('never repeats a mutation that reached the server', async () => {
    let n = 0;
    server.stub('/api/v1/issues/archive', (_req, res) => { n++; res.writeHead(500, { 'content-type': 'application/json' }); res.end('{"error":"boom"}'); });
    const r = await runCli(['issues', 'archive', 'iss_1', '--retries', '3'], { env: env() });
    expect(r.code).toBe(6);
    expect(n).toBe(1);
  });
});

describe('hostile response shapes', () => {
  it('a response nested 20,000 levels deep ends with exit 7 and one line', async () => {
    server.stub('/api/v1/issues/get', { text: '{"id":"i","a":'.repeat(20000) + '1' + '}'.repeat(20000), headers: { 'content-type': 'application/json' } });
    const r = await runCli(['issues', 'get', 'iss_1', '--retries', '0'], { env: env() });
    expect(r.code).toBe(7);
    expect(expectOneLine(r.stderr)).toMatch(/nested too deeply/);
  });
});

describe('svc gate: every code it ends with is documented where a CI author looks', () => {
  // The codes the gate ends with: 5 when the service rejects its search (a 400), 9 when stdout or a
  // report cannot be written, 70 on a bug, 143 on SIGTERM (a cancelled CI job), besides 0-4 and 6-8.
  const GATE_CODES = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 70, 130, 143];

  it('a search the service rejects is exit 5, said in one line', async () => {
    server.stub('/api/v1/orgs/list', { json: [{ id: 'org_1', name: 'A' }] });
    server.stub('/api/v1/repositories/list', { json: [{ id: 'repo_1', name: 'app' }] });
    server.stub('/api/v1/issues/search', { status: 400, json: { error: 'unknown field types' } });
    const r = await runCli(['gate', '--fail-on', 'high', '--retries', '0', '--no-ci'], { env: env({ SVC_ORGANIZATION_ID: 'org_1' }) });
    expect(r.code, r.stderr).toBe(5);
    expect(r.stderr).toMatch(/HTTP 400: unknown field types/);
  });

  it('svc gate --help lists each of them', async () => {
    const r = await runCli(['gate', '--help'], { env: { COLUMNS: '200' } });
    const list = r.stdout.slice(r.stdout.indexOf('Exit codes'), r.stdout.indexOf('What the gate does not trust'));
    const listed = [...list.matchAll(/^ +(\d+)  /gm)].map((m) => Number(m[1]));
    expect(listed).toEqual(GATE_CODES);
  });

  it("README's table of what the gate's codes mean in CI lists each of them", async () => {
    const { readFileSync } = await import('node:fs');
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const table = readme.slice(readme.indexOf('| Exit | In CI it means |'));
    const rows = table.slice(0, table.indexOf('\n\n')).split('\n').slice(2);
    const listed = rows.flatMap((row) => row.split('|')[1].split(',').map((c) => Number(c.trim())));
    expect(listed).toEqual(GATE_CODES);
  });
});
