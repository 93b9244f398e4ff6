/** A level named alone (`svc`, `svc issues`, `svc auth`) answers with its help: stdout, exit 0. */
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../helpers/host.js';

describe('a command that needs a subcommand, given none', () => {
  it.each([
    [[], /^Usage: svc <command>/],
    [['--no-color', '--profile', 'x'], /^Usage: svc <command>/],
    [['issues'], /^Usage: svc issues <operation>/],
    [["--json", "repositories"], /^Usage: svc repos\|repositories <operation>/],
    [['auth'], /^Usage: svc auth /],
  ])('svc %j: its help on stdout, exit 0', async (argv, usage) => {
    const r = await runCli(argv);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(usage);
  });
});
