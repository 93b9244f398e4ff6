/** `svc auth status` checks the token; `svc auth token`; 401 hints name the credentials in use; base URL normalisation. */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, testHost } from '../../../helpers/host.js';
import { FAKE_TOKEN_ID, FAKE_TOKEN_SECRET, useFakeServer } from '../../../helpers/fake-server.js';

// Requests with another token get 401 {"error":"invalid token"}. On a MockAgent: no socket is needed here.
const fake = useFakeServer({ token: { id: FAKE_TOKEN_ID, secret: FAKE_TOKEN_SECRET }, mock: true });
const ORGS = { json: [{ id: 'org_1', name: 'Acme' }] };
const wrongSecret = () => ({ ...fake.env, SVC_API_TOKEN_SECRET: 'wrong-secret' });

/** A host whose config file holds a stored login for the fake server (with a wrong secret). */
function storedLogin() {
  const host = testHost({ dispatcher: fake.dispatcher });
  writeFileSync(join(host.configDir, 'config.json'), JSON.stringify({ profiles: { default: { baseUrl: fake.url, tokenId: 'tid-stored-0002', tokenSecret: 'wrong-stored-secret', organization: 'org_9' } } }), { mode: 0o600 });
  return host;
}

describe('svc auth status', () => {
  it('checks the token with one read: a refused token is exit 3 (it was 0), data says verified false', async () => {
    fake.stub('/api/v1/orgs/list', ORGS, { optional: true });
    const r = await runCli(['auth', 'status', '-o', 'json'], { env: wrongSecret(), dispatcher: fake.dispatcher });
    expect(r.code).toBe(3);
    expect(fake.requests.map((q) => q.path)).toEqual(['/api/v1/orgs/list']);
    expect(JSON.parse(r.stdout).verified).toBe(false);
    expect(r.stderr).toMatch(/HTTP 401/);
    // The hint names where the refused token came from.
    expect(r.stderr).toMatch(/comes from SVC_API_TOKEN_ID\/SVC_API_TOKEN_SECRET in the environment/);
    expect(r.stdout + r.stderr).not.toContain('wrong-secret');
  });

  it('-o json is data: each setting as {value, source}, and verified true when the token works', async () => {
    fake.stub('/api/v1/orgs/list', ORGS);
    const r = await runCli(['auth', 'status', '-o', 'json', '--org', 'org_1'], { env: fake.env, dispatcher: fake.dispatcher });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      baseUrl: { value: fake.url, source: 'SVC_BASE_URL' },
      tokenId: { value: 'fake…0001', source: 'environment' },
      organization: { value: 'org_1', source: '--org' },
      profile: { value: 'default' },
      verified: true,
    });
    expect(r.stdout).not.toContain(FAKE_TOKEN_SECRET);
    expect(r.stderr).toBe('');
  });

  it('-o csv is CSV, one row a setting (it printed JSON)', async () => {
    fake.stub('/api/v1/orgs/list', ORGS);
    const r = await runCli(['auth', 'status', '-o', 'csv', '--org', 'org_1'], { env: fake.env, dispatcher: fake.dispatcher });
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('setting,value,source,problem');
    expect(lines).toContain(`baseUrl,${fake.url},SVC_BASE_URL,`);
    // A value that starts with '-' is defused like every CSV cell svc writes (a spreadsheet formula).
    expect(lines).toContain(`organization,org_1,"'--org",`);
    expect(lines).toContain('verified,true,,');
    expect(lines).toHaveLength(7);
    expect(r.stdout).not.toContain('{');
    expect(r.stdout).not.toContain(FAKE_TOKEN_SECRET);
  });

  it('no organization set: said in the data, no warning', async () => {
    fake.stub('/api/v1/orgs/list', ORGS);
    const r = await runCli(['auth', 'status', '-o', 'json'], { env: fake.env, dispatcher: fake.dispatcher });
    expect(r.code).toBe(0);
    // Commands still work: the service acts on the token's default organization.
    const org = JSON.parse(r.stdout).organization;
    expect(org).toMatchObject({ value: null, source: "the token's default" });
    expect(org.problem).toBeUndefined();
    expect(r.stderr).toBe('');
  });

  it('exit 4 when the organization in use is not among those the token sees: the status printed, then one error line', async () => {
    fake.stub('/api/v1/orgs/list', ORGS);
    const r = await runCli(['auth', 'status', '--org', 'org_other', '-o', 'json'], { env: fake.env, dispatcher: fake.dispatcher });
    expect(r.code).toBe(4);
    expect(JSON.parse(r.stdout)).toMatchObject({ verified: true, organization: { value: 'org_other', source: '--org', problem: 'not among the organizations this token can see (svc orgs list)' } });
    expect(r.stderr).toMatch(/^svc: error: organization org_other \(from --org\) is not among the organizations this token can see; svc orgs list shows them[^\n]*\n$/);
    // From the environment, as a CI job sets it: the same.
    const env = await runCli(['auth', 'status'], { env: { ...fake.env, SVC_ORGANIZATION_ID: 'org_other' }, dispatcher: fake.dispatcher });
    expect(env.code).toBe(4);
    expect(env.stderr).toContain('organization org_other (from SVC_ORGANIZATION_ID)');
    // One the token sees: exit 0.
    expect((await runCli(['auth', 'status', '--org', ORGS.json[0].id], { env: fake.env, dispatcher: fake.dispatcher })).code).toBe(0);
  });

  it('--offline sends nothing and says so; exit 0 when credentials are found', async () => {
    const r = await runCli(['auth', 'status', '--offline', '-o', 'table'], { env: wrongSecret(), dispatcher: fake.dispatcher });
    expect(r.code).toBe(0);
    expect(fake.requests).toHaveLength(0);
    expect(r.stdout).toMatch(/verified\s+not checked \(--offline\)/);
    expect(r.stdout).toMatch(/token id\s+fake…0001 \(from environment\)/);
  });

  it('no credentials: exit 3, verified false, the problem in the data', async () => {
    const r = await runCli(['auth', 'status', '-o', 'json'], { env: { SVC_BASE_URL: fake.url }, dispatcher: fake.dispatcher });
    expect(r.code).toBe(3);
    expect(JSON.parse(r.stdout)).toMatchObject({ tokenId: { value: null, source: null, problem: 'not logged in: no API token' }, verified: false });
  });

  it('a 401 of any command names the stored profile and the config file when the token is the stored one', async () => {
    const host = storedLogin();
    const r = await runCli(['orgs', 'list'], { host });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`the token in use is the one stored in profile "default" (${join(host.configDir, 'config.json')})`);
    expect(r.stderr).toMatch(/svc auth login/);
    const status = await runCli(['auth', 'status', '-o', 'table'], { host: storedLogin() });
    expect(status.code).toBe(3);
    expect(status.stdout).toMatch(/token id\s+tid-…0002 \(from profile "default"\)/);
    expect(status.stdout).toMatch(/verified\s+no/);
  });
});

describe('svc auth token', () => {
  it('prints the token id, says where the secret lives, never prints the secret', async () => {
    const r = await runCli(['auth', 'token'], { env: fake.env, dispatcher: fake.dispatcher });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`${FAKE_TOKEN_ID}\n`);
    expect(r.stderr).toMatch(/secret is stored in the environment variable SVC_API_TOKEN_SECRET/);
    expect(r.stdout + r.stderr).not.toContain(FAKE_TOKEN_SECRET);
  });

  it('names the config file for a stored token', async () => {
    const host = storedLogin();
    const r = await runCli(['auth', 'token', '-o', 'json'], { host });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      tokenId: { value: 'tid-stored-0002', source: 'profile "default"' },
      secret: { location: `${join(host.configDir, 'config.json')} (profile "default", file mode 0600)`, shown: false },
    });
    expect(r.stdout + r.stderr).not.toContain('wrong-stored-secret');
  });

  it('--show-secret prints the secret only on a terminal', async () => {
    const piped = await runCli(['auth', 'token', '--show-secret'], { env: fake.env, dispatcher: fake.dispatcher });
    expect(piped.code).toBe(2);
    expect(piped.stdout + piped.stderr).not.toContain(FAKE_TOKEN_SECRET);
    const tty = await runCli(['auth', 'token', '--show-secret'], { env: fake.env, tty: { stdout: true }, dispatcher: fake.dispatcher });
    expect(tty.code).toBe(0);
    expect(tty.stdout).toBe(`${FAKE_TOKEN_ID}\n${FAKE_TOKEN_SECRET}\n`);
  });

  it('exit 3 without credentials', async () => {
    const r = await runCli(['auth', 'token'], { env: { SVC_BASE_URL: fake.url }, dispatcher: fake.dispatcher });
    expect(r.code).toBe(3);
  });
});

describe('base URL with /api/v1', () => {
  it('is taken off with a warning, so paths are not doubled', async () => {
    fake.stub('/api/v1/orgs/list', ORGS);
    const r = await runCli(['orgs', 'list', '--base-url', `${fake.url}/api/v1/`], { env: fake.env, dispatcher: fake.dispatcher });
    expect(r.code, r.stderr).toBe(0);
    expect(fake.requests.map((q) => q.path)).toEqual(['/api/v1/orgs/list']);
    expect(r.stderr).toMatch(/warning: the base URL .*\/api\/v1 \(from --base-url\) ends with \/api\/v1, which svc adds/);
  });

  it('config set base-url stores it without /api/v1', async () => {
    const r = await runCli(['config', 'set', 'base-url', 'https://api.example.com/api/v1']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/warning: .*ends with \/api\/v1/);
    expect(JSON.parse(readFileSync(join(r.host.configDir, 'config.json'), 'utf8')).profiles.default.baseUrl).toBe('https://api.example.com');
  });

  it('a path prefix before /api/v1 is kept', async () => {
    const r = await runCli(['auth', 'status', '--offline', '-o', 'json', '--base-url', 'https://gw.example.com/svc/api/v1'], { env: fake.env, dispatcher: fake.dispatcher });
    expect(JSON.parse(r.stdout).baseUrl.value).toBe('https://gw.example.com/svc');
  });
});

describe('no base URL', () => {
  it('recommends the sandbox command that exists on every install', async () => {
    const r = await runCli(['orgs', 'list']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/'svc sandbox' runs a local stand-in/);
  });
});
