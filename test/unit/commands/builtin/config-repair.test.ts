/**
 * The ways out svc's own errors name must work: `config set`/`unset` whatever the other keys hold,
 * `config reset --yes` on what is in the config file's place, an empty file written like it is read.
 */
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, testHost } from '../../../helpers/host.js';

function withConfig(text: string) {
  const host = testHost();
  const path = join(host.configDir, 'config.json');
  writeFileSync(path, text, { mode: 0o600 });
  return { host, path };
}

describe('svc config set / unset with values of the wrong type', () => {
  const wrong = JSON.stringify({ profiles: { default: { baseUrl: 5, organization: ['a'] } } });

  it('set base-url works while organization is a list, and keeps it', async () => {
    const { host, path } = withConfig(wrong);
    const r = await runCli(['config', 'set', 'base-url', 'https://api.example.test'], { host });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(readFileSync(path, 'utf8')).profiles.default).toEqual({ baseUrl: 'https://api.example.test', organization: ['a'] });
  });

  it('set organization works while base-url is a number, and keeps it', async () => {
    const { host, path } = withConfig(wrong);
    const r = await runCli(['config', 'set', 'organization', 'org_1'], { host });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(readFileSync(path, 'utf8')).profiles.default).toEqual({ baseUrl: 5, organization: 'org_1' });
  });

  it('unset removes a value of the wrong type', async () => {
    const { host, path } = withConfig('{"profiles":{"default":{"baseUrl":5}}}');
    const r = await runCli(['config', 'unset', 'base-url'], { host });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('Removed base-url from profile "default".\n');
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ profiles: { default: {} } });
  });

  it('auth logout removes a token of the wrong type', async () => {
    const { host, path } = withConfig('{"profiles":{"default":{"tokenId":5,"tokenSecret":"s3cr3t-logout","organization":"o"}}}');
    const r = await runCli(['auth', 'logout'], { host });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ profiles: { default: { organization: 'o' } } });
  });
});

describe('an empty config file', () => {
  it.each(['', '\n'])('%j is written like it is read: an empty config', async (text) => {
    const { host, path } = withConfig(text);
    const list = await runCli(['config', 'list', '-o', 'json'], { host });
    expect(list.stdout).toBe('{}\n');
    const r = await runCli(['config', 'set', 'organization', 'org_1'], { host });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ profiles: { default: { organization: 'org_1' } } });
  });
});

describe('svc config reset --yes', () => {
  it('with no config file says there was nothing to delete', async () => {
    const r = await runCli(['config', 'reset', '--yes']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^Nothing to delete: there is no config file at .*config\.json\.\n$/);
  });

  it('deletes the file', async () => {
    const { host, path } = withConfig('{}');
    const r = await runCli(['config', 'reset', '--yes'], { host });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe(`Deleted ${path}.\n`);
    expect(existsSync(path)).toBe(false);
  });

  it('removes an empty directory in the file\'s place, and refuses one with files in it (exit 2, not 70)', async () => {
    const host = testHost();
    const path = join(host.configDir, 'config.json');
    mkdirSync(path);
    const empty = await runCli(['config', 'reset', '--yes'], { host });
    expect(empty.code, empty.stderr).toBe(0);
    expect(empty.stderr).toBe(`Deleted ${path}, an empty directory in place of the config file.\n`);
    mkdirSync(path);
    writeFileSync(join(path, 'notes.txt'), 'keep me');
    // The host's stderr holds both runs: this one's line is the last.
    const full = await runCli(['config', 'reset', '--yes'], { host });
    expect(full.code).toBe(2);
    expect(full.stderr.slice(empty.stderr.length)).toBe(`svc: error: ${path} is a directory with files in it, not a config file; nothing was deleted; look at what is in it, then move or delete it yourself, or point SVC_CONFIG_DIR elsewhere\n`);
    expect(readFileSync(join(path, 'notes.txt'), 'utf8')).toBe('keep me');
  });
});
