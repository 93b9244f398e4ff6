import { Command, Option } from 'commander';
import { describe, expect, it } from 'vitest';
import { loadAllOperations, commandName, GROUPS } from '../../../src/operations/index.js';
import { buildModel, allCommands, type CommandModel, type CompletionModel } from '../../../src/completion/tree.js';
import { buildTables } from '../../../src/completion/tables.js';
import { bashScript } from '../../../src/completion/bash.js';
import { zshScript } from '../../../src/completion/zsh.js';
import { fishScript } from '../../../src/completion/fish.js';
import { built } from '../../helpers/program.js';
import { expectedPaths } from '../../helpers/spec.js';

async function model(): Promise<CompletionModel> {
  return buildModel((await built()).program);
}

function at(m: CompletionModel, ...path: string[]): CommandModel {
  const found = allCommands(m).find((c) => c.path.join(' ') === path.join(' '));
  if (!found) throw new Error(`no command ${path.join(' ')}`);
  return found;
}

const flag = (c: CommandModel, name: string) => c.flags.find((f) => f.names.includes(name));

describe('completion model from the commander tree', () => {
  it('has every operation of the table under its group, named in kebab-case with the API spelling as alias', async () => {
    const m = await model();
    const ops = await loadAllOperations();
    expect(ops.map((o) => o.path).sort()).toEqual(expectedPaths() ?? ops.map((o) => o.path).sort());
    for (const op of ops) {
      const { name, alias } = commandName(op);
      const cmd = at(m, op.group, name);
      expect(cmd.aliases).toEqual(alias ? [alias] : []);
      expect(cmd.description).toContain(op.summary.split(' (')[0]);
    }
    for (const g of GROUPS) expect(at(m, g.name).aliases).toEqual(g.aliases);
  });

  it('lists the built-in commands and hides the __complete helper', async () => {
    const names = (await model()).root.commands.map((c) => c.name);
    expect(names).toEqual(expect.arrayContaining(['auth', 'config', 'api', 'completion', 'help']));
    expect(names).not.toContain('__complete');
  });

  it('knows what each flag value is: enum, list of enums, file, @file, profile', async () => {
    const m = await model();
    const search = at(m, 'issues', 'search');
    expect(flag(search, '--sort-by')?.value).toEqual({ kind: 'choice', values: ['createdAt', 'severity', 'score'] });
    expect(flag(search, '--types')?.value).toMatchObject({ kind: 'choice', list: true, values: expect.arrayContaining(['open', 'patched', 'falsePositive']) });
    expect(flag(search, '--input')?.value).toEqual({ kind: 'file' });
    expect(flag(search, '-F')?.value).toEqual({ kind: 'at-file' });
    expect(flag(search, '--get-counts')?.value).toBeUndefined();
    expect(flag(search, '--no-get-counts')).toBeDefined();
    expect(flag(at(m, 'repos', 'add-hostc'), '--repos')?.value).toEqual({ kind: 'at-file' });
    const globals = Object.fromEntries(m.globals.flatMap((f) => f.names.map((n) => [n, f.value])));
    expect(globals['--output']).toEqual({ kind: 'choice', values: ['table', 'json', 'ndjson', 'csv'] });
    expect(globals['-o']).toEqual(globals['--output']);
    expect(globals['--profile']).toEqual({ kind: 'profile' });
    expect(globals['--json']).toBeUndefined();
    expect(Object.keys(globals)).not.toContain('--help');
  });

  it('completes the shell argument of `completion` and help topics after `help`', async () => {
    const m = await model();
    expect(at(m, 'completion').args).toEqual([{ kind: 'choice', values: ['bash', 'zsh', 'fish'] }]);
    expect(m.topics.map((t) => t.name)).toEqual(['exit-codes', 'environment', 'output', 'global-flags']);
    expect(buildTables(m).helpPath).toBe('help');
  });

  it('picks up a command added later to the tree, with no list to update', async () => {
    const { program } = await built();
    const extra = new Command('emulator').description('Run a local fake service')
      .option('--port <n>', 'Port')
      .option('--keep <file>', 'State file')
      .addOption(new Option('--glitch <kind>', 'Inject a fault').choices(['timeout', 'reset']));
    extra.command('reset').description('Forget the state');
    program.addCommand(extra);
    program.addCommand(new Command('checker').option('--keep', 'A flag of the same name that takes no value'));
    const m = buildModel(program);
    const emulator = at(m, 'emulator');
    expect(flag(emulator, '--keep')?.value).toEqual({ kind: 'file' });
    expect(flag(emulator, '--glitch')?.value).toEqual({ kind: 'choice', values: ['timeout', 'reset'] });
    expect(flag(emulator, '--port')?.value).toEqual({ kind: 'any' });
    expect(at(m, 'emulator', 'reset').description).toBe('Forget the state');
    const tables = buildTables(m);
    expect(tables.values).toContainEqual({ path: '*', flag: '--glitch', spec: 'choice:timeout reset' });
    // --keep takes a file in one command and nothing in another: only emulator's is a value.
    expect(tables.values.filter((v) => v.flag === '--keep')).toEqual([{ path: 'emulator', flag: '--keep', spec: 'file' }]);
    for (const script of [bashScript(m), zshScript(m), fishScript(m)]) {
      expect(script).toContain('/--glitch');
      expect(script).toContain('choice:timeout reset');
      expect(script).toContain('emulator/--keep');
    }
  });
});
