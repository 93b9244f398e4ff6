/** Help as a user sees it (in-process, main() with a test host), in a pipe: 80 columns, no colour. */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { HELP_FILES, helpFile } from '../../src/docs/generated.js';
import { runCli } from '../helpers/host.js';

const ROOT = resolve(__dirname, '../..');

describe('help kept as files (non-terminal: 80 columns, no colour)', () => {
  // The files are written by `npm run docs` from the command tree (src/docs/generated.ts); here the
  // real main() must print exactly them, so a change shows in review and a stale file fails.
  const cases = Object.entries(HELP_FILES);
  it.each(cases)('svc %s', async (name, path) => {
    const r = await runCli([...path, '--help'], { env: { COLUMNS: '60', FORCE_COLOR: undefined } });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).not.toContain('\u001b[');
    // Wrapped to 80 columns (COLUMNS is ignored off a terminal); a long example continues after ` \\`.
    expect(Math.max(...r.stdout.split('\n').map((l) => l.length))).toBeLessThanOrEqual(80);
    expect(r.stdout, `${helpFile(name)} differs from 'svc ${path.join(' ')} --help': run npm run docs`).toBe(readFileSync(join(ROOT, helpFile(name)), 'utf8'));
  });

  it('svc help <command> prints the same as <command> --help', async () => {
    const [a, b] = await Promise.all([runCli(['help', 'issues', 'search']), runCli(['issues', 'search', '--help'])]);
    expect(a.code).toBe(0);
    expect(a.stdout).toBe(b.stdout);
  });

  it('an operation reached by its API spelling shows the same help and its API path', async () => {
    const [alias, kebab] = await Promise.all([runCli(['stats', 'issuesBySeverity', '--help']), runCli(['stats', 'issues-by-severity', '--help'])]);
    expect(alias.stdout).toBe(kebab.stdout);
    expect(alias.stdout).toContain('API: POST /api/v1/stats/issuesBySeverity');
    expect(alias.stdout).toMatch(/Examples?:\n  # .+\n  \$ svc stats /);
  });
});

describe('help topics', () => {
  it.each([
    ['exit-codes', /Gate failed/],
    ['environment', /SVC_API_TOKEN_SECRET/],
    ['output', /ndjson/],
    ['global-flags', /--dry-run/],
  ])('svc help %s', async (topic, pattern) => {
    const r = await runCli(['help', topic]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(pattern);
  });

  it('an unknown topic is a usage error', async () => {
    const r = await runCli(['help', 'nonsense']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^svc: error: unknown help topic or command 'nonsense'/);
  });
});

describe('typos get a suggestion and exit 2', () => {
  it.each([
    [['isues'], /unknown command 'isues' \(did you mean 'svc issues'\?\)/],
    [['repositries', 'list'], /did you mean 'svc repositories'\?/],
    [['issues', 'serch'], /unknown operation 'serch' of 'svc issues' \(did you mean 'svc issues search'\?\)/],
    [['stats', 'issuesBySeverty'], /did you mean 'svc stats issuesBySeverity'\?/],
    [['issues', 'search', '--sort-byy', 'score'], /unknown option '--sort-byy' for 'svc issues search' \(did you mean --sort-by\?\)/],
  ])('svc %j', async (args, pattern) => {
    const r = await runCli(args);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(pattern);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });
});
