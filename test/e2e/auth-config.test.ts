/** Credentials and profiles: login from stdin, status sources, logout, config keys, file mode. */
import { readFileSync, statSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/host.js';
import { tempDir } from '../helpers/temp.js';

/** A config dir of the test's own (removed after it). */
const tempConfigDir = () => tempDir('svc-test-cfg-');
import { startFakeServer, type FakeServer } from '../helpers/fake-server.js';

const SECRET = 'login-secret-never-printed-77';
let server: FakeServer;
beforeAll(async () => {
  server = await startFakeServer();
  server.stub('/api/v1/orgs/list', (req, res) => {
    const ok = req.headers['x-service-api-token-secret'] === SECRET;
    res.writeHead(ok ? 200 : 401, { 'content-type': 'application/json' });
    res.end(ok ? '[{"id":"org_1","name":"Acme"}]' : '{"error":"invalid token"}');
  });
});
afterAll(() => server.close());

describe('auth', () => {
  it('logs in from stdin, verifies the token, stores it with mode 0600, and uses it', async () => {
    const cfg = tempConfigDir();
    const env = { SVC_CONFIG_DIR: cfg };
    const login = await runCli(['auth', 'login', '--base-url', server.url, '--token-id', 'tid-000000001', '--with-secret-stdin', '--organization', 'org_1'], { env, stdin: `${SECRET}\n` });
    expect(login.code, login.stderr).toBe(0);
    expect(login.stderr).toMatch(/Logged in: profile "default" now holds token/);
    expect(login.stdout + login.stderr).not.toContain(SECRET);
    const file = join(cfg, 'config.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8')).profiles.default).toEqual({ tokenId: 'tid-000000001', tokenSecret: SECRET, baseUrl: server.url, organization: 'org_1' });

    const status = await runCli(['auth', 'status', '-o', 'table'], { env });
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(/token id\s+tid-…0001 \(from profile "default"\)/);
    expect(status.stdout).toMatch(/token secret\s+set \(hidden/);
    expect(status.stdout).toMatch(/verified\s+yes/);
    expect(status.stdout).toMatch(/organization\s+org_1 Acme \(from profile\)/);
    expect(status.stdout + status.stderr).not.toContain(SECRET);

    const list = await runCli(['orgs', 'list'], { env });
    expect(list.code).toBe(0);
    expect(server.requests.at(-1)!.headers['x-service-api-token-id']).toBe('tid-000000001');

    const envWins = await runCli(['auth', 'status'], { env: { ...env, SVC_API_TOKEN_ID: 'env-id-9999', SVC_API_TOKEN_SECRET: 'env-secret' } });
    expect(JSON.parse(envWins.stdout)).toMatchObject({ tokenId: { value: 'env-…9999', source: 'environment' }, verified: false });

    const logout = await runCli(['auth', 'logout'], { env });
    expect(logout.code).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8')).profiles.default).toEqual({ baseUrl: server.url, organization: 'org_1' });
    const after = await runCli(['auth', 'status'], { env });
    expect(after.code).toBe(3);
  });

  it('refuses a token the service rejects and saves nothing', async () => {
    const cfg = tempConfigDir();
    const r = await runCli(['auth', 'login', '--base-url', server.url, '--token-id', 'tid', '--with-secret-stdin'], { env: { SVC_CONFIG_DIR: cfg }, stdin: 'wrong-secret' });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/the service refused this token/);
    expect(existsSync(join(cfg, 'config.json'))).toBe(false);
  });

  it('needs --token-id and the secret on stdin when not on a terminal', async () => {
    const r = await runCli(['auth', 'login', '--no-verify'], {});
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/no token id given/);
    const r2 = await runCli(['auth', 'login', '--token-id', 'x', '--with-secret-stdin', '--no-verify'], { stdin: '' });
    expect(r2.code).toBe(2);
    expect(r2.stderr).toMatch(/stdin was empty/);
    const r3 = await runCli(['auth', 'login', '--token-id', 'x', '--token-secret', 's'], {});
    expect(r3.code).toBe(2);
    expect(r3.stderr).toMatch(/unknown option '--token-secret'/);
  });

  it('keeps named profiles apart and binds tokens to their base URL', async () => {
    const cfg = tempConfigDir();
    const env = { SVC_CONFIG_DIR: cfg };
    await runCli(['auth', 'login', '--profile', 'staging', '--base-url', server.url, '--token-id', 'tid-staging', '--with-secret-stdin'], { env, stdin: SECRET });
    const viaFlag = await runCli(['orgs', 'list', '--profile', 'staging'], { env });
    expect(viaFlag.code).toBe(0);
    const viaEnv = await runCli(['orgs', 'list'], { env: { ...env, SVC_PROFILE: 'staging' } });
    expect(viaEnv.code).toBe(0);
    const otherUrl = await runCli(['orgs', 'list', '--profile', 'staging', '--base-url', 'http://127.0.0.2:1'], { env });
    expect(otherUrl.code).toBe(3);
    expect(otherUrl.stderr).toMatch(/belongs to http:\/\/127\.0\.0\.1:\d+, not http:\/\/127\.0\.0\.2:1; not sending it/);
    const defaultProfile = await runCli(['orgs', 'list'], { env });
    expect(defaultProfile.code).toBe(2);
  });
});

describe('config', () => {
  it('sets, gets, lists and unsets keys; reads never write', async () => {
    const cfg = tempConfigDir();
    const env = { SVC_CONFIG_DIR: cfg };
    expect((await runCli(['config', 'set', 'base-url', 'https://api.example.com/'], { env })).code).toBe(0);
    expect((await runCli(['config', 'set', 'output', 'csv'], { env })).code).toBe(0);
    expect((await runCli(['config', 'set', 'dev-base-url', 'https://dev.example.com', '--profile', 'p2'], { env })).code).toBe(0);
    const get = await runCli(['config', 'get', 'base-url'], { env });
    expect(get.stdout).toBe('https://api.example.com\n');
    const file = join(cfg, 'config.json');
    const before = statSync(file);
    const list = await runCli(['config', 'list', '-o', 'json'], { env });
    expect(JSON.parse(list.stdout)).toEqual({ default: { 'base-url': 'https://api.example.com', output: 'csv' }, p2: { 'dev-base-url': 'https://dev.example.com' } });
    await runCli(['auth', 'status'], { env });
    await runCli(['orgs', 'list', '--dry-run'], { env });
    const after = statSync(file);
    expect([after.mtimeMs, after.ino]).toEqual([before.mtimeMs, before.ino]);
    expect((await runCli(['config', 'unset', 'output'], { env })).code).toBe(0);
    const missing = await runCli(['config', 'get', 'output'], { env });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/'output' is not set in profile "default"/);
  });

  it('rejects unknown keys and bad values without touching the file', async () => {
    const cfg = tempConfigDir();
    const env = { SVC_CONFIG_DIR: cfg };
    const key = await runCli(['config', 'set', 'colour', 'red'], { env });
    expect(key.code).toBe(2);
    expect(key.stderr).toBe("svc: error: unknown setting 'colour'; settings: base-url, dev-base-url, organization, output\n");
    const url = await runCli(['config', 'set', 'base-url', 'ftp://x'], { env });
    expect(url.code).toBe(2);
    expect(existsSync(join(cfg, 'config.json'))).toBe(false);
  });

  it('explains a corrupt config file and how to get out', async () => {
    const cfg = tempConfigDir();
    writeFileSync(join(cfg, 'config.json'), '{ not json');
    const r = await runCli(['orgs', 'list'], { env: { SVC_CONFIG_DIR: cfg } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/config file .*config\.json is corrupt: it is not valid JSON \((line \d+, column \d+|it ends before the JSON does: cut short\?)\); .*svc config reset/);
    expect(readFileSync(join(cfg, 'config.json'), 'utf8')).toBe('{ not json');
    const reset = await runCli(['config', 'reset', '--yes'], { env: { SVC_CONFIG_DIR: cfg } });
    expect(reset.code).toBe(0);
    expect(existsSync(join(cfg, 'config.json'))).toBe(false);
  });

  it('uses the profile output format, and -o over it', async () => {
    const cfg = tempConfigDir();
    const env = { SVC_CONFIG_DIR: cfg, SVC_BASE_URL: server.url, SVC_API_TOKEN_ID: 'tid', SVC_API_TOKEN_SECRET: SECRET };
    await runCli(['config', 'set', 'output', 'csv'], { env });
    const csv = await runCli(['orgs', 'list'], { env });
    expect(csv.stdout).toBe('id,name,role\norg_1,Acme,\n');
    const nd = await runCli(['orgs', 'list', '-o', 'ndjson'], { env });
    expect(nd.stdout).toBe('{"id":"org_1","name":"Acme"}\n');
    const table = await runCli(['orgs', 'list', '-o', 'table', '--columns', 'name'], { env });
    expect(table.stdout).toBe('NAME\nAcme\n');
  });
});
