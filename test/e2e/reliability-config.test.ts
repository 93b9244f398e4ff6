/**
 * Config safety with the built svc: mode 0600 after every write, a corrupt file is reported and
 * never overwritten (and `svc config reset --yes` recovers), read-only runs never write, even ten
 * at once.
 */
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/host.js';
import { startFakeServer, type FakeServer } from '../helpers/fake-server.js';
import { tempDir } from '../helpers/temp.js';

let server: FakeServer;
beforeAll(async () => {
  server = await startFakeServer();
  server.stub('/api/v1/orgs/list', [{ kind: 'ok', json: [{ id: 'org_1', name: 'Acme' }] }]);
});
afterAll(async () => { await server.close(); });

const fresh = () => tempDir('svc-cfg-e2e-');
const mode = (p: string) => statSync(p).mode & 0o777;
const noCreds = { SVC_API_TOKEN_ID: undefined, SVC_API_TOKEN_SECRET: undefined, SVC_BASE_URL: undefined };

describe('writes: atomic, mode 0600', () => {
  it('after config set, auth login and auth logout', async () => {
    const dir = fresh();
    const file = join(dir, 'config.json');
    const env = { SVC_CONFIG_DIR: dir, ...noCreds };
    expect((await runCli(['config', 'set', 'base-url', server.url], { env })).code).toBe(0);
    expect(mode(file)).toBe(0o600);
    expect(mode(dir)).toBe(0o700);
    const login = await runCli(['auth', 'login', '--token-id', 'id-00000001', '--with-secret-stdin'], { env, stdin: 'login-secret-1234\n' });
    expect(login.code).toBe(0);
    expect(login.stderr).toMatch(/Logged in: profile "default" now holds token id-0…0001 for http:\/\/127\.0\.0\.1:\d+/);
    expect(mode(file)).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8')).profiles.default).toEqual({ baseUrl: server.url, tokenId: 'id-00000001', tokenSecret: 'login-secret-1234' });
    // The stored token works against its own base URL.
    const list = await runCli(['orgs', 'list', '-o', 'json'], { env });
    expect(list.code).toBe(0);
    expect(server.requests.at(-1)?.headers['x-service-api-token-secret']).toBe('login-secret-1234');
    expect((await runCli(['config', 'set', 'organization', 'org_1'], { env })).code).toBe(0);
    expect(mode(file)).toBe(0o600);
    expect((await runCli(['auth', 'logout'], { env })).code).toBe(0);
    expect(mode(file)).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8')).profiles.default).toEqual({ baseUrl: server.url, organization: 'org_1' });
    // No temp file is left next to it.
    expect(readdirSync(dir)).toEqual(['config.json']);
  });

  it('a token logged in with SVC_BASE_URL is bound to that URL', async () => {
    const dir = fresh();
    const env = { SVC_CONFIG_DIR: dir, ...noCreds, SVC_BASE_URL: server.url };
    expect((await runCli(['auth', 'login', '--token-id', 'id-00000002', '--with-secret-stdin'], { env, stdin: 's-2' })).code).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).profiles.default.baseUrl).toBe(server.url);
    expect((await runCli(['orgs', 'list'], { env })).code).toBe(0);
  });
});

describe('a corrupt config file', () => {
  const corrupt = '{"profiles": {"default": {"baseUrl": "https://api.example.com", ';

  it('is reported with its path and the way out, never overwritten, and `config reset --yes` recovers', async () => {
    const dir = fresh();
    const file = join(dir, 'config.json');
    writeFileSync(file, corrupt, { mode: 0o600 });
    const env = { SVC_CONFIG_DIR: dir, ...noCreds };
    for (const args of [['config', 'set', 'organization', 'org_1'], ['config', 'list'], ['orgs', 'list'], ['auth', 'logout'], ['config', 'unset', 'organization']]) {
      const r = await runCli(args, { env });
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      // Where the JSON breaks, as node's parser says it: a line and column, or that it ends early.
      expect(r.stderr.replace(/ \((line \d+, column \d+|it ends before the JSON does: cut short\?)\)/, '')).toBe(
        `svc: error: the config file ${file} is corrupt: it is not valid JSON; fix it by hand, or run 'svc config reset' to start afresh (this deletes the stored profiles)\n`,
      );
      expect(readFileSync(file, 'utf8')).toBe(corrupt);
    }
    const login = await runCli(['auth', 'login', '--token-id', 'i', '--with-secret-stdin'], { env, stdin: 'sss-secret' });
    expect(login.code).toBe(2);
    expect(readFileSync(file, 'utf8')).toBe(corrupt);
    // `config path` still answers, so the user can find the file.
    const path = await runCli(['config', 'path'], { env });
    expect(path).toMatchObject({ code: 0, stdout: `${file}\n` });
    const reset = await runCli(['config', 'reset', '--yes'], { env });
    expect(reset.code).toBe(0);
    expect(readdirSync(dir)).toEqual([]);
    expect((await runCli(['config', 'set', 'organization', 'org_1'], { env })).code).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ profiles: { default: { organization: 'org_1' } } });
  });
});

describe('SVC_CONFIG_DIR naming a file', () => {
  it('is exit 2 naming it for reads and writes alike (config list showed {} with exit 0), and the file is left as it was', async () => {
    const file = join(fresh(), 'not-a-folder');
    writeFileSync(file, 'mine\n');
    for (const args of [['config', 'list'], ['config', 'set', 'organization', 'org_1'], ['orgs', 'list']]) {
      const r = await runCli(args, { env: { SVC_CONFIG_DIR: file, ...noCreds } });
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/not a directory/);
      expect(r.stdout).toBe('');
    }
    expect(readFileSync(file, 'utf8')).toBe('mine\n');
  });
});

describe('read-only runs never write', () => {
  it('the file keeps its inode, mtime and bytes after many read-only commands, ten of them at once', async () => {
    const dir = fresh();
    const file = join(dir, 'config.json');
    const text = `${JSON.stringify({ profiles: { default: { baseUrl: server.url, tokenId: 'id-00000003', tokenSecret: 'ro-secret-99', organization: 'org_1' } } }, null, '\t')}\n`;
    writeFileSync(file, text, { mode: 0o600 });
    const past = new Date(Date.now() - 3_600_000);
    const { utimesSync } = await import('node:fs');
    utimesSync(file, past, past);
    const before = statSync(file);
    const env = { SVC_CONFIG_DIR: dir, ...noCreds };
    const reads = [
      ['orgs', 'list', '-o', 'json'], ['orgs', 'list', '-o', 'table'], ['config', 'get', 'base-url'], ['config', 'list'],
      ['config', 'list', '-o', 'json'], ['config', 'path'], ['auth', 'status'], ['issues', 'search', '--dry-run'],
      ['help', 'environment'], ['orgs', 'list', '--verbose'],
    ];
    const results = await Promise.all(reads.map((args) => runCli(args, { env })));
    results.forEach((r, i) => expect(r.code, `${reads[i].join(' ')}: ${r.stderr}`).toBe(0));
    const after = statSync(file);
    expect(after.ino).toBe(before.ino);
    expect(after.mtimeMs).toBe(before.mtimeMs);
    expect(after.mode).toBe(before.mode);
    expect(readFileSync(file, 'utf8')).toBe(text);
    expect(readdirSync(dir)).toEqual(['config.json']);
  });
});
