/** `svc auth status` checks the token; `svc auth token`; 401 hints name the credentials in use; base URL normalisation. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../../helpers/in-process.js';
import { tempConfigDir } from '../../helpers/run-svc.js';
import { startRecordingServer, type RecordingServer } from '../../helpers/recording-server.js';

const SECRET = 'status-secret-never-printed-42';
let server: RecordingServer;
beforeAll(async () => {
  server = await startRecordingServer();
  server.route('/api/v1/orgs/list', (req, res) => {
    const ok = req.headers['x-service-api-token-secret'] === SECRET;
    res.writeHead(ok ? 200 : 401, { 'content-type': 'application/json' });
    res.end(ok ? '[{"id":"org_1","name":"Acme"}]' : '{"error":"invalid token"}');
  });
});
afterAll(() => server.close());

const envToken = (secret: string) => ({ SVC_BASE_URL: server.url, SVC_API_TOKEN_ID: 'tid-env-000001', SVC_API_TOKEN_SECRET: secret });

async function storedLogin(): Promise<Record<string, string>> {
  const env = { SVC_CONFIG_DIR: tempConfigDir() };
  const file = join(env.SVC_CONFIG_DIR, 'config.json');
  const { writeFileSync } = await import('node:fs');
  writeFileSync(file, JSON.stringify({ profiles: { default: { baseUrl: server.url, tokenId: 'tid-stored-0002', tokenSecret: 'wrong-stored-secret', organization: 'org_9' } } }), { mode: 0o600 });
  return env;
}

describe('svc auth status', () => {
  it('checks the token with one read: a refused token is exit 3 (it was 0), data says verified false', async () => {
    const before = server.requests.length;
    const r = await cli(['auth', 'status', '-o', 'json'], envToken('wrong-secret'));
    expect(r.code).toBe(3);
    expect(server.requests.length - before).toBe(1);
    expect(server.requests.at(-1)!.path).toBe('/api/v1/orgs/list');
    const data = JSON.parse(r.stdout);
    expect(data.verified).toBe(false);
    expect(r.stderr).toMatch(/HTTP 401/);
    // The hint names where the refused token came from.
    expect(r.stderr).toMatch(/comes from SVC_API_TOKEN_ID\/SVC_API_TOKEN_SECRET in the environment/);
    expect(r.stdout + r.stderr).not.toContain('wrong-secret');
  });

  it('-o json is data: each setting as {value, source}, and verified true when the token works', async () => {
    const r = await cli(['auth', 'status', '-o', 'json', '--org', 'org_1'], envToken(SECRET));
    expect(r.code, r.stderr).toBe(0);
    const data = JSON.parse(r.stdout);
    expect(data).toMatchObject({
      baseUrl: { value: server.url, source: 'SVC_BASE_URL' },
      tokenId: { value: 'tid-…0001', source: 'environment' },
      organization: { value: 'org_1', source: '--org' },
      profile: { value: 'default' },
      verified: true,
    });
    expect(r.stdout).not.toContain(SECRET);
  });

  it('warns when the organization in use is not among those the token sees', async () => {
    const r = await cli(['auth', 'status', '--org', 'org_other'], envToken(SECRET));
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/warning: organization org_other: not among the organizations this token can see/);
  });

  it('--offline sends nothing and says so; exit 0 when credentials are found', async () => {
    const before = server.requests.length;
    const r = await cli(['auth', 'status', '--offline', '-o', 'table'], envToken('wrong-secret'));
    expect(r.code).toBe(0);
    expect(server.requests.length).toBe(before);
    expect(r.stdout).toMatch(/verified\s+not checked \(--offline\)/);
    expect(r.stdout).toMatch(/token id\s+tid-…0001 \(from environment\)/);
  });

  it('no credentials: exit 3, verified false, the problem in the data', async () => {
    const r = await cli(['auth', 'status', '-o', 'json'], { SVC_BASE_URL: server.url });
    expect(r.code).toBe(3);
    expect(JSON.parse(r.stdout)).toMatchObject({ tokenId: { value: null, source: null, problem: 'not logged in: no API token' }, verified: false });
  });

  it('a 401 of any command names the stored profile and the config file when the token is the stored one', async () => {
    const env = await storedLogin();
    const r = await cli(['orgs', 'list'], env);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`the token in use is the one stored in profile "default" (${join(env.SVC_CONFIG_DIR, 'config.json')})`);
    expect(r.stderr).toMatch(/svc auth login/);
    const status = await cli(['auth', 'status', '-o', 'table'], env);
    expect(status.code).toBe(3);
    expect(status.stdout).toMatch(/token id\s+tid-…0002 \(from profile "default"\)/);
    expect(status.stdout).toMatch(/verified\s+no/);
  });
});

describe('svc auth token', () => {
  it('prints the token id, says where the secret lives, never prints the secret', async () => {
    const r = await cli(['auth', 'token'], envToken(SECRET));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('tid-env-000001\n');
    expect(r.stderr).toMatch(/secret is stored in the environment variable SVC_API_TOKEN_SECRET/);
    expect(r.stdout + r.stderr).not.toContain(SECRET);
  });

  it('names the config file for a stored token', async () => {
    const env = await storedLogin();
    const r = await cli(['auth', 'token', '-o', 'json'], env);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      tokenId: { value: 'tid-stored-0002', source: 'profile "default"' },
      secret: { location: `${join(env.SVC_CONFIG_DIR, 'config.json')} (profile "default", file mode 0600)`, shown: false },
    });
    expect(r.stdout + r.stderr).not.toContain('wrong-stored-secret');
  });

  it('--show-secret prints the secret only on a terminal', async () => {
    const piped = await cli(['auth', 'token', '--show-secret'], envToken(SECRET));
    expect(piped.code).toBe(2);
    expect(piped.stdout + piped.stderr).not.toContain(SECRET);
    const tty = await cli(['auth', 'token', '--show-secret'], envToken(SECRET), { tty: true });
    expect(tty.code).toBe(0);
    expect(tty.stdout).toBe(`tid-env-000001\n${SECRET}\n`);
  });

  it('exit 3 without credentials', async () => {
    const r = await cli(['auth', 'token'], { SVC_BASE_URL: server.url });
    expect(r.code).toBe(3);
  });
});

describe('base URL with /api/v1', () => {
  it('is taken off with a warning, so paths are not doubled', async () => {
    const r = await cli(['orgs', 'list', '--base-url', `${server.url}/api/v1/`], envToken(SECRET));
    expect(r.code, r.stderr).toBe(0);
    expect(server.requests.at(-1)!.path).toBe('/api/v1/orgs/list');
    expect(r.stderr).toMatch(/warning: the base URL .*\/api\/v1 \(from --base-url\) ends with \/api\/v1, which svc adds/);
  });

  it('config set base-url stores it without /api/v1', async () => {
    const env = { SVC_CONFIG_DIR: tempConfigDir() };
    const r = await cli(['config', 'set', 'base-url', 'https://api.example.com/api/v1'], env);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/warning: .*ends with \/api\/v1/);
    expect(JSON.parse(readFileSync(join(env.SVC_CONFIG_DIR, 'config.json'), 'utf8')).profiles.default.baseUrl).toBe('https://api.example.com');
  });

  it('a path prefix before /api/v1 is kept', async () => {
    const r = await cli(['auth', 'status', '--offline', '-o', 'json', '--base-url', 'https://gw.example.com/svc/api/v1'], envToken(SECRET));
    expect(JSON.parse(r.stdout).baseUrl.value).toBe('https://gw.example.com/svc');
  });
});

describe('no base URL', () => {
  it('recommends the sandbox command that exists on every install', async () => {
    const r = await cli(['orgs', 'list'], {});
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/'svc sandbox' runs a local stand-in/);
  });
});
