/** Help that forgives: suggestions by the flag's words and synonyms, --vuln-classes, operations within their group. */
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../helpers/host.js';

const env = { SVC_BASE_URL: 'http://127.0.0.1:9', SVC_API_TOKEN_ID: 'tid', SVC_API_TOKEN_SECRET: 'secret', SVC_ORGANIZATION_ID: 'org_1' };

describe('unknown flags: suggestions by words and synonyms, exit 2', () => {
  it.each([
    ['--repo', 'repo_1', /did you mean --repository-ids\?/],
    ['--status', 'open', /did you mean --types\?/],
    ['--sort', 'score', /did you mean --sort-by or --sort-order\?/],
    ['--severity', '3', /did you mean --severities-min or --severities-max\?/],
    // A level word is a level (issue 36.6): --level filters by it.
    ['--severity', 'high', /did you mean --level or --severities-min\?/],
    ['--severity=critical', 'x', /did you mean --level or --severities-min\?/],
  ])('svc issues search %s', async (flag, value, says) => {
    const r = await runCli(['issues', 'search', flag, value], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(says);
    expect(r.stderr).toMatch(new RegExp(`unknown option '${flag}' for 'svc issues search'.*; see 'svc issues search --help'`));
    // commander's own pick was --org for --sort
    expect(r.stderr).not.toMatch(/--org\b/);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('svc gate --severity suggests --fail-on', async () => {
    const r = await runCli(['gate', '--severity', 'high'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/did you mean --fail-on\?/);
  });
});

describe('--vuln-classes is --vulnerability-classes', () => {
  it('in svc issues search: the same body field, values of both added up', async () => {
    const r = await runCli(['issues', 'search', '--vuln-classes', 'xss', '--vulnerability-classes', 'sqli', '--dry-run'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).body.vulnerabilityClasses).toEqual(['xss', 'sqli']);
  });

  it('in svc gate: scopes the search the same way', async () => {
    const r = await runCli(['gate', '--vuln-classes', 'xss', '--fail-on', 'high', '--dry-run'], { env });
    expect(r.stderr).not.toMatch(/unknown option/);
    expect(r.stdout + r.stderr).toMatch(/"vulnerabilityClasses":\s*\[\s*"xss"\s*\]/);
  });

  it('help names the alias next to the flag, once', async () => {
    const r = await runCli(['issues', 'search', '--help'], { env });
    expect(r.stdout).toMatch(/--vulnerability-classes <classes>\s+Only\s+these\s+vulnerability\s+classes\s+\(also\s+--vuln-classes\)/);
    expect(r.stdout).not.toMatch(/^\s+--vuln-classes(?!\))/m);
  });
});

describe('a mistyped operation: suggestions within its group', () => {
  it('svc issues serch -> svc issues search', async () => {
    const r = await runCli(['issues', 'serch'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown operation 'serch' of 'svc issues' \(did you mean 'svc issues search'\?\); run 'svc issues --help' for its operations/);
  });

  it('svc issues list -> svc issues search (a synonym), not an operation of another group', async () => {
    const r = await runCli(['issues', 'list'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/did you mean 'svc issues search'\?/);
  });

  it('svc repos delte -> svc repos delete', async () => {
    const r = await runCli(['repos', 'delte', 'repo_1'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/did you mean 'svc repos delete'\?/);
  });

  it('a group and its operation typed as one word: svc issues-search -> svc issues search (a group only once)', async () => {
    for (const [typed, meant] of [['issues-search', 'svc issues search'], ['repos.list', 'svc repos list'], ['organizations_list', 'svc orgs list'], ['auth-status', 'svc auth status'], ['config:get', 'svc config get']]) {
      const r = await runCli([typed], { env });
      expect(r.code, typed).toBe(2);
      expect(r.stderr, typed).toBe(`svc: error: unknown command '${typed}' (did you mean '${meant}'?); run 'svc --help' for the commands\n`);
    }
    // Not for commands that take no operation, nor below the top level.
    expect((await runCli(['gate-x'], { env })).stderr).toMatch(/did you mean 'svc gate'\?\)/);
    expect((await runCli(['issues', 'repos-list'], { env })).stderr).not.toMatch(/svc issues repos list/);
  });

  it('an unknown group names the top-level help', async () => {
    const r = await runCli(['isues', 'search'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown command 'isues' \(did you mean 'svc issues'\?\); run 'svc --help' for the commands/);
  });
});
