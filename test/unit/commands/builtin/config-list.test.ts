/**
 * `svc config list` in every output format (it printed the human text for -o csv), and `--columns`
 * on commands whose output is not a list of records (`config list`, `auth status`): exit 2 before
 * anything runs, not a flag that silently does nothing.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, testHost } from '../../../helpers/host.js';

/** A host whose config file holds two profiles. */
function twoProfiles() {
  const host = testHost();
  writeFileSync(join(host.configDir, 'config.json'), JSON.stringify({ profiles: {
    default: { baseUrl: 'https://api.example.test', tokenId: 'tid-0001', tokenSecret: 'never-shown', organization: 'org_1' },
    'ci,bot': { baseUrl: 'https://other.example.test', output: 'json' },
  } }), { mode: 0o600 });
  return host;
}

describe('svc config list', () => {
  it('-o csv is CSV: one row a setting that is set, the secret hidden', async () => {
    const r = await runCli(['config', 'list', '-o', 'csv'], { host: twoProfiles() });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe([
      'profile,key,value',
      'default,base-url,https://api.example.test',
      'default,organization,org_1',
      'default,token,tid-… (secret hidden)',
      '"ci,bot",base-url,https://other.example.test',
      '"ci,bot",output,json',
      '',
    ].join('\n'));
    expect(r.stdout).not.toContain('never-shown');
  });

  it('-o ndjson is one profile a line; -o json the whole document', async () => {
    const nd = await runCli(['config', 'list', '-o', 'ndjson'], { host: twoProfiles() });
    expect(nd.code, nd.stderr).toBe(0);
    expect(nd.stdout.trim().split('\n').map((l) => JSON.parse(l))).toEqual([
      { profile: 'default', 'base-url': 'https://api.example.test', organization: 'org_1', token: 'tid-… (secret hidden)' },
      { profile: 'ci,bot', 'base-url': 'https://other.example.test', output: 'json' },
    ]);
    const json = await runCli(['config', 'list', '-o', 'json'], { host: twoProfiles() });
    expect(Object.keys(JSON.parse(json.stdout))).toEqual(['default', 'ci,bot']);
  });

  it('--columns is exit 2 naming the command, with what to do instead', async () => {
    for (const argv of [['config', 'list', '--columns', 'key'], ['auth', 'status', '--offline', '--columns', 'setting']]) {
      const r = await runCli(argv, { host: twoProfiles() });
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(`--columns does not apply to 'svc ${argv.slice(0, 2).join(' ')}': its output is not a list of records`);
      expect(r.stderr).toMatch(/to pick fields, use -o json with --jq/);
    }
  });
});
