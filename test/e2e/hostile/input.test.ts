/**
 * Hostile or unlucky input (issue 12, classes 7, 8, 11, and scan schedules): concurrent config
 * updates lose nothing, numbers are never altered, a config file of the wrong shape fails only what
 * needs it, and a schedule the service would reject is refused before sending.
 */
import { spawn } from 'node:child_process';
import { readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ConfigStore } from '../../../src/config/store.js';
import { BIN, cleanEnv } from '../../helpers/run-svc.js';
import { envFor, rawServer, response, run, tempDir, type RawServer } from './harness.js';

let srv: RawServer;
beforeAll(async () => { srv = await rawServer(); });
afterAll(async () => { await srv.close(); });
afterEach(() => { srv.requests.length = 0; });

describe('class 7: concurrent config updates lose nothing', () => {
  it('40 updates at once (each its own store, as 40 processes would be): all 40 kept, the file valid', async () => {
    const path = join(tempDir(), 'config.json');
    await Promise.all(Array.from({ length: 40 }, (_, i) => new ConfigStore(path).update(`p${i}`, (p) => ({ ...p, organization: `org_${i}` }))));
    const data = JSON.parse(readFileSync(path, 'utf8'));
    expect(Object.keys(data.profiles)).toHaveLength(40);
    for (let i = 0; i < 40; i++) expect(data.profiles[`p${i}`]).toEqual({ organization: `org_${i}` });
  });

  // Six processes are enough: with the lock taken out, four or six lost updates in each of five runs.
  it('6 `svc config set` processes at once on one profile and on others: nothing lost', async () => {
    const dir = tempDir();
    const set = (args: string[]) => new Promise<number | null>((resolve) => {
      const child = spawn(process.execPath, [BIN, 'config', 'set', ...args], { env: cleanEnv({ SVC_CONFIG_DIR: dir }), stdio: 'ignore' });
      child.on('close', resolve);
    });
    const codes = await Promise.all([
      ...Array.from({ length: 4 }, (_, i) => set(['organization', `org_${i}`, '--profile', `p${i}`])),
      set(['base-url', 'https://api.example.test']),
      set(['output', 'csv']),
    ]);
    expect(codes).toEqual(Array(6).fill(0));
    const data = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
    expect(Object.keys(data.profiles).sort()).toEqual(['default', ...Array.from({ length: 4 }, (_, i) => `p${i}`)].sort());
    expect(data.profiles.default).toEqual({ baseUrl: 'https://api.example.test', output: 'csv' });
  });

  it('a lock left by a dead process is taken over', async () => {
    const dir = tempDir();
    const path = join(dir, 'config.json');
    writeFileSync(`${path}.lock`, '999999999 ' + (await import('node:os')).hostname());
    // Left a while ago: a dead owner's lock is taken over once it has stood a second (the second
    // itself is test/unit/config/lock.test.ts's), so the update need not wait for it here.
    const earlier = new Date(Date.now() - 10_000);
    utimesSync(`${path}.lock`, earlier, earlier);
    await new ConfigStore(path).update('default', () => ({ organization: 'o' }));
    expect(JSON.parse(readFileSync(path, 'utf8')).profiles.default.organization).toBe('o');
  });
});

describe('class 8: numbers a double cannot hold are refused, never altered', () => {
  beforeAll(() => srv.handle('/api/v1/issues/search', (_r, s) => { s.end(response(200, '{"issues":[],"totalCount":0}')); }));

  it.each([
    ['-F n=1e400', ['api', 'issues/search', '-F', 'n=1e400'], /1e400: it is too large for a JSON number/],
    ['-F n=9007199254740993', ['api', 'issues/search', '-F', 'n=9007199254740993'], /would be sent as 9007199254740992/],
    ['-F id=<30 digits>', ['api', 'issues/search', '-F', 'id=123456789012345678901234567890'], /cannot hold it exactly/],
    ['-F n=1e-400', ['api', 'issues/search', '-F', 'n=1e-400'], /would be sent as 0/],
    ['-F JSON array', ['api', 'issues/search', '-F', 'ids=[1, 9007199254740993]'], /9007199254740993/],
    ['--page 9007199254740993', ['issues', 'search', '--page', '9007199254740993'], /--page expects an integer, got '9007199254740993': .* would be sent as 9007199254740992/],
    ['--page 0x10', ['issues', 'search', '--page', '0x10'], /--page expects an integer, got '0x10'/],
  ])('%s: exit 2 naming it, nothing sent', async (_what, argv, message) => {
    const r = await run(argv, { env: envFor(srv.url) });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(srv.requests).toHaveLength(0);
  });

  it('--input with a 30-digit number is refused; as a string it is sent as given', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'a.json'), '{"scanId": 123456789012345678901234567890}');
    writeFileSync(join(dir, 'b.json'), '{"scanId": "123456789012345678901234567890", "pageSize": 1e2}');
    expect((await run(['api', 'issues/search', '--input', 'a.json'], { env: envFor(srv.url), cwd: dir })).code).toBe(2);
    expect(srv.requests).toHaveLength(0);
    const ok = await run(['api', 'issues/search', '--input', 'b.json', '-f', 'big=9007199254740993', '-F', 'small=0.1'], { env: envFor(srv.url), cwd: dir });
    expect(ok.code, ok.stderr).toBe(0);
    expect(srv.requests[0].body).toContain('"scanId":"123456789012345678901234567890"');
    expect(srv.requests[0].body).toContain('"big":"9007199254740993"');
    expect(JSON.parse(srv.requests[0].body)).toMatchObject({ pageSize: 100, small: 0.1 });
  });
});

describe('class 11: a config file of the wrong shape', () => {
  const configWith = (profiles: unknown) => {
    const dir = tempDir();
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ profiles }));
    return dir;
  };

  it.each([
    ['orgs list', ['orgs', 'list']],
    ['config list', ['config', 'list']],
    ['auth status', ['auth', 'status']],
    ['config get base-url', ['config', 'get', 'base-url']],
  ])('%s with baseUrl: 5 is exit 2 naming the file and the key, with the way out', async (_what, argv) => {
    const dir = configWith({ default: { baseUrl: 5, tokenId: 'tid-1', tokenSecret: 'cfg-secret-1' } });
    const r = await run(argv, { env: { SVC_CONFIG_DIR: dir } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(join(dir, 'config.json'));
    expect(r.stderr).toContain('profiles.default.baseUrl: expected a string, got number');
    expect(r.stderr).toContain('svc config reset');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('commands whose settings all come from flags and the environment still run', async () => {
    srv.handle('/api/v1/orgs/list', (_r, s) => { s.end(response(200, '[{"id":"org_1"}]')); });
    const dir = configWith({ default: { baseUrl: 5, tokenId: ['x'], output: { a: 1 }, organization: false } });
    const r = await run(['orgs', 'list', '-o', 'json'], { env: { ...envFor(srv.url), SVC_CONFIG_DIR: dir } });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([{ id: 'org_1' }]);
  });

  it('setting the broken key repairs it; setting another keeps the broken ones as they are; `svc config reset` is the way out otherwise', async () => {
    const dir = configWith({ default: { baseUrl: 5, organization: 'org_1' } });
    const set = await run(['config', 'set', 'base-url', 'https://api.example.test'], { env: { SVC_CONFIG_DIR: dir } });
    expect(set.code, set.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).profiles.default).toEqual({ baseUrl: 'https://api.example.test', organization: 'org_1' });
    const broken = configWith({ default: { baseUrl: 5, output: 7 } });
    // One key is set whatever the others hold (it used to fail naming baseUrl or output), and they stay as they were.
    const other = await run(['config', 'set', 'organization', 'org_2'], { env: { SVC_CONFIG_DIR: broken } });
    expect(other.code, other.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(broken, 'config.json'), 'utf8')).profiles.default).toEqual({ baseUrl: 5, output: 7, organization: 'org_2' });
    const reset = await run(['config', 'reset', '--yes'], { env: { SVC_CONFIG_DIR: broken } });
    expect(reset.code).toBe(0);
    expect((await run(['config', 'list', '-o', 'json'], { env: { SVC_CONFIG_DIR: broken } })).code).toBe(0);
  });
});

describe('scans upsert-schedule: crontab and timezone checked before sending', () => {
  beforeAll(() => srv.handle('/api/v1/scans/upsert-schedule', (_r, s) => { s.end(response(200, '{"ok":true}')); }));
  const upsert = (cron: string, zone?: string, more: string[] = []) =>
    run(['scans', 'upsert-schedule', 'repo_1', '--execution-criteria-crontab', cron, ...(zone ? ['--timezone', zone] : []), '--is-enabled', ...more], { env: envFor(srv.url) });

  it.each([
    ['61 * * * *', /--execution-criteria-crontab: is not a valid crontab: .*minute: 61/],
    ['* * * *', /a crontab has 5 fields .* got 4/],
    ['0 0 0 * * *', /a crontab has 5 fields .* got 6/],
    ['0 3 30 2 *', /it never runs/],
    ['*/0 * * * *', /not a valid crontab/],
  ])('crontab %j: exit 2 naming the flag, nothing sent', async (cron, message) => {
    const r = await upsert(cron, 'Europe/Berlin');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(srv.requests).toHaveLength(0);
  });

  it.each(['Mars/Olympus', 'Europe/Berln', ' UTC'])('timezone %j: exit 2 naming the flag, nothing sent', async (zone) => {
    const r = await upsert('0 3 * * 1', zone);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--timezone: is not a time zone name/);
    expect(srv.requests).toHaveLength(0);
  });

  it('a valid schedule is sent; the human output shows the next three runs in its zone', async () => {
    const r = await upsert('0 3 * * 1', 'Europe/Berlin', ['-o', 'table']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(srv.requests[0].body)).toMatchObject({ executionCriteriaCrontab: '0 3 * * 1', timezone: 'Europe/Berlin', isEnabled: true });
    const runs = /Next runs: (.*)/.exec(r.stderr)?.[1].split(', ') ?? [];
    expect(runs).toHaveLength(3);
    for (const when of runs) expect(when).toMatch(/^\d{4}-\d\d-\d\d 03:00 Europe\/Berlin$/);
    const json = await upsert('0 3 * * 1', 'Europe/Berlin', ['-o', 'json']);
    expect(json.stderr).not.toContain('Next runs');
  });
});
