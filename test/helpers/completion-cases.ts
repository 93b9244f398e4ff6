/**
 * The completion cases every shell must pass, driven in the real shell on the checked-in script.
 * Each shell has its own test file (so they run in parallel). A shell that is missing skips its cases
 * locally and fails them in CI (.ci/run installs it).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { loadAllOperations, commandName } from '../../src/operations/index.js';
import { flagSpecs } from '../../src/request/flags.js';
import { complete, sandbox, shellAvailable, type Sandbox, type ShellName } from './shells.js';

const sorted = (list: string[]) => [...list].sort();

/** What each shell reports for the value after a prefix it keeps (bash after =/@, zsh after compset). */
const EXPECT_PREFIXED: Record<ShellName, { sortBy: string[]; list: string[]; atFile: string[] }> = {
  bash: { sortBy: ['score', 'severity'], list: ['open,patched'], atFile: ['@body.json', '@bulk.json'] },
  zsh: { sortBy: ['score', 'severity'], list: ['patched'], atFile: ['body.json', 'bulk.json'] },
  fish: { sortBy: ['--sort-by=score', '--sort-by=severity'], list: ['open,patched'], atFile: ['organizationId=@body.json', 'organizationId=@bulk.json'] },
};

export function completionCases(shell: ShellName): void {
  describe.runIf(shellAvailable(shell))(`${shell} completion`, () => {
    let box: Sandbox;
    const tab = (line: string) => complete[shell](line, box);
    beforeAll(() => { box = sandbox(['default', 'staging', 'prod-eu']); });

    it('svc <TAB>: groups with their aliases, built-ins and help; no hidden helper', () => {
      const got = tab('svc ');
      expect(got).toEqual(expect.arrayContaining(['orgs', 'organizations', 'repos', 'repositories', 'installations', 'stats', 'issues', 'scans', 'auth', 'config', 'api', 'completion', 'help']));
      expect(got).not.toContain('__complete');
      expect(got.some((w) => w.startsWith('-'))).toBe(false);
    });

    it('svc iss<TAB>: issues', () => {
      expect(tab('svc iss')).toEqual(['issues']);
    });

    it('svc issues <TAB>: every operation of the group, kebab-case, and triage', async () => {
      const ops = (await loadAllOperations()).filter((o) => o.group === 'issues').map((o) => commandName(o).name);
      expect(sorted(tab('svc issues '))).toEqual(sorted([...ops, 'triage']));
    });

    it('svc stats issuesBy<TAB>: the API spellings are aliases', () => {
      expect(sorted(tab('svc stats issuesBy'))).toEqual(['issuesByAuthor', 'issuesByRepository', 'issuesBySeverity', 'issuesByVulnClass']);
    });

    it('svc issues search --so<TAB>: its flags', () => {
      expect(sorted(tab('svc issues search --so'))).toEqual(['--sort-by', '--sort-order']);
    });

    it('svc issues search --sort-by <TAB>: the enum values', () => {
      expect(sorted(tab('svc issues search --sort-by '))).toEqual(['createdAt', 'score', 'severity']);
    });

    it('svc issues search --sort-by=s<TAB>: values after =', () => {
      expect(sorted(tab('svc issues search --sort-by=s'))).toEqual(EXPECT_PREFIXED[shell].sortBy);
    });

    it('svc repos set-pr-scanning --<TAB>: its own flags (with --no-x), the escape hatches and the global flags', () => {
      const got = tab('svc repos set-pr-scanning --');
      expect(got).toEqual(expect.arrayContaining([
        '--organization-id', '--repository-id', '--is-pr-scanning-enabled', '--no-is-pr-scanning-enabled',
        '--field', '--raw-field', '--input', '--help', '--output', '--json', '--profile', '--org', '--dry-run', '--no-color',
      ]));
      expect(got).not.toContain('--sort-by');
      expect(got).not.toContain('--all');
      expect(got.every((w) => w.startsWith('--'))).toBe(true);
    });

    it('--profile <TAB>: profile names read from the config file at TAB time', () => {
      expect(sorted(tab('svc --profile '))).toEqual(['default', 'prod-eu', 'staging']);
      expect(tab('svc issues search --profile st')).toEqual(['staging']);
    });

    it('--output and completion <TAB>: their choices', () => {
      expect(sorted(tab('svc issues search -o '))).toEqual(['csv', 'json', 'ndjson', 'table']);
      expect(sorted(tab('svc completion '))).toEqual(['bash', 'fish', 'zsh']);
    });

    it('--types open,pa<TAB>: the next item of a list', () => {
      expect(tab('svc issues search --types open,pa')).toEqual(EXPECT_PREFIXED[shell].list);
    });

    it('--input <TAB> and -F key=@<TAB>: paths', () => {
      const files = tab('svc issues search --input ');
      expect(files).toEqual(expect.arrayContaining(['body.json', 'bulk.json', 'notes.txt']));
      expect(files.some((f) => f.startsWith('reports'))).toBe(true);
      expect(sorted(tab('svc issues search -F organizationId=@b'))).toEqual(EXPECT_PREFIXED[shell].atFile);
    });

    it('svc gate --fail-on <TAB>: the levels (it completed nothing)', () => {
      expect(sorted(tab('svc gate --fail-on '))).toEqual(['critical', 'high', 'info', 'low', 'medium']);
      expect(tab('svc gate --fail-on h')).toEqual(['high']);
    });

    it('--types open,<TAB>: the other values, not those already in the list', async () => {
      const search = (await loadAllOperations()).find((o) => o.group === 'issues' && o.name === 'search')!;
      const all = flagSpecs(search.request.shape).find((f) => f.flag === 'types')!.choices!;
      const keep = shell === 'zsh' ? (v: string) => v : (v: string) => `open,patched,${v}`;
      expect(sorted(tab('svc issues search --types open,patched,'))).toEqual(sorted(all.filter((v) => v !== 'open' && v !== 'patched').map(keep)));
    });

    it('a value of an alias (--vuln-classes) is skipped like its flag\'s', () => {
      expect(sorted(tab('svc gate --vuln-classes xss --fail-on '))).toEqual(['critical', 'high', 'info', 'low', 'medium']);
    });

    it('a global flag value is skipped when finding the command', () => {
      expect(sorted(tab('svc --profile staging issues search --sort-order '))).toEqual(['asc', 'desc']);
    });

    it('svc help <TAB>: topics and commands', () => {
      const got = tab('svc help ');
      expect(got).toEqual(expect.arrayContaining(['exit-codes', 'environment', 'output', 'global-flags', 'issues', 'auth']));
      expect(sorted(tab('svc help issues se'))).toEqual(['search']);
    });
  });
}
