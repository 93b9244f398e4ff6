/**
 * A call registers only what its command line names (src/commands/program.ts `namedCall`, and the
 * operation's options in src/commands/operation/command.ts): building the rest of the tree was most
 * of a plain call's own start-up. Anything else registers every command and option, for help,
 * suggestions and completion. That the output is the same either way is shown by the help and
 * command tests, which run through main() and so take this path.
 */
import { Readable, Writable } from 'node:stream';
import { CommanderError, type Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../../src/commands/program.js';
import type { IO } from '../../../src/core/host.js';

/** The tree after commander parsed `argv` as a call does (the command line given to buildProgram too); the run step does nothing. */
async function parsed(argv: string[]): Promise<{ program: Command; ran: boolean }> {
  const sink = new Writable({ write(_chunk, _enc, done) { done(); } });
  const io: IO = { stdout: sink, stderr: sink, stdin: Readable.from([]), stdoutIsTTY: false, stderrIsTTY: false, stdinIsTTY: false };
  let ran = false;
  const program = buildProgram(async () => { ran = true; }, io, '0.0.0', () => {}, {}, argv);
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (err) {
    if (!(err instanceof CommanderError)) throw err;
  }
  return { program, ran };
}
const names = (cmd: Command) => cmd.commands.map((c) => c.name());
const child = (cmd: Command, name: string) => cmd.commands.find((c) => c.name() === name)!;

describe('what a command line registers', () => {
  it('`issues search -o json`: the issues group, its search operation alone, none of its options', async () => {
    for (const argv of [['issues', 'search', '-o', 'json'], ['-o', 'json', 'issues', 'search'], ['--org=o1', 'issues', '--json', 'search', '--timeout', '5']]) {
      const { program, ran } = await parsed(argv);
      expect(ran, argv.join(' ')).toBe(true);
      expect(names(program), argv.join(' ')).toEqual(['issues']);
      const issues = child(program, 'issues');
      expect(names(issues), argv.join(' ')).toEqual(['search']);
      expect(child(issues, 'search').options, argv.join(' ')).toEqual([]);
    }
    // The global options it gives, no other.
    expect((await parsed(['issues', 'search', '-o', 'json'])).program.options.map((o) => o.long)).toEqual(['--output']);
    expect((await parsed(['--org=o1', 'issues', '--no-color', 'search'])).program.options.map((o) => o.long)).toEqual(['--org', '--no-color']);
  });

  it("an operation's own flag: every option of the operation (and the API spelling finds it too)", async () => {
    const { program } = await parsed(['issues', 'search', '--types', 'open', '-o', 'json']);
    const search = child(child(program, 'issues'), 'search');
    expect(search.options.map((o) => o.long)).toEqual(expect.arrayContaining(['--types', '--page-size', '--field', '--all', '--level']));
    const stats = await parsed(['stats', 'issuesBySeverity', '-o', 'json']);
    expect(names(child(stats.program, 'stats'))).toEqual(['issues-by-severity']);
  });

  it('anything else registers every command: no command, a built-in, a misspelt group, help, an unknown flag before the command', async () => {
    for (const argv of [[], ['auth', 'status'], ['isues', 'search'], ['help', 'issues'], ['--bogus', 'issues', 'search'], ['-h']]) {
      const { program } = await parsed(argv);
      expect(names(program), argv.join(' ')).toEqual(expect.arrayContaining(['orgs', 'issues', 'scans', 'auth', 'gate', 'sandbox', 'help']));
    }
  });

  it('a group with no operation, or a misspelt one: that group, with every operation', async () => {
    for (const argv of [['issues'], ['issues', 'serch'], ['issues', '--help']]) {
      const { program } = await parsed(argv);
      expect(names(program), argv.join(' ')).toEqual(argv.length === 2 && argv[1] === '--help' ? expect.arrayContaining(['orgs', 'issues']) : ['issues']);
      expect(names(child(program, 'issues')), argv.join(' ')).toEqual(expect.arrayContaining(['search', 'get', 'triage']));
    }
  });

  it('--help (or any flag the operation does not know) after the operation: all its options and every global one, for the help and "did you mean"', async () => {
    for (const flag of ['--help', '--typs', '--types']) {
      const { program } = await parsed(['issues', 'search', flag]);
      expect(child(child(program, 'issues'), 'search').options.length, flag).toBeGreaterThan(20);
      expect(program.options.length, flag).toBe(17);
    }
  });
});
