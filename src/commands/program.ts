/**
 * The commander tree. Only the group named on the command line is loaded (with its zod schemas);
 * the others are registered by name and summary, which is all top-level help needs.
 */
import { Command, Option } from 'commander';
import type { IO } from '../context.js';
import { GROUPS, findGroup, loadGroup, type Group } from '../operations/index.js';
import { GLOBAL_OPTIONS, firstCommandWord } from './globals.js';
import { buildOperationCommand } from './operation.js';
import { HELP_TOPICS } from './help-topics.js';
import type { Runner } from './runner.js';

/** Built-in commands, each loaded only when named. */
export const BUILTINS: ReadonlyArray<{ name: string; summary: string; load: () => Promise<(run: Runner) => Command> }> = [
  { name: 'auth', summary: 'Log in, check and log out', load: async () => (await import('./auth.js')).authCommand },
  { name: 'config', summary: 'Read and change profile settings', load: async () => (await import('./config.js')).configCommand },
  { name: 'api', summary: 'Call any API operation by path', load: async () => (await import('./api.js')).apiCommand },
  { name: 'sandbox', summary: 'Run a local stand-in of the service (no account needed)', load: async () => (await import('./sandbox.js')).sandboxCommand },
];

export const DESCRIPTION = 'svc: the command line for the Code Security Scanning Service';

export async function buildProgram(argv: readonly string[], run: Runner, io: IO, version: string, onError: (message: string) => void): Promise<Command> {
  const program = new Command('svc')
    .description(DESCRIPTION)
    .usage('<command> [subcommand] [flags]')
    .version(version, '-V, --version', 'Print the version')
    .helpOption('-h, --help', 'Show help')
    .helpCommand(false)
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
      outputError: (s) => onError(s),
      getOutHelpWidth: () => io.columns ?? 100,
      getErrHelpWidth: () => 100,
    })
    .configureHelp({ showGlobalOptions: true, sortSubcommands: false });
  for (const o of GLOBAL_OPTIONS) {
    const opt = new Option(o.flags, o.description);
    if (o.choices) opt.choices(o.choices);
    program.addOption(opt);
  }

  let word = firstCommandWord(argv);
  if (word === 'help') word = argv[argv.indexOf('help') + 1];
  const everything = word === undefined ? false : word === 'completion' || word === '__complete';
  for (const g of GROUPS) {
    const wanted = everything || findGroup(word ?? '') === g;
    program.addCommand(wanted ? await groupCommand(g, run) : placeholder(g.name, g.summary, g.aliases));
  }
  for (const b of BUILTINS) {
    program.addCommand(word === b.name || everything ? (await b.load())(run) : placeholder(b.name, b.summary, []));
  }
  program.addCommand(helpCommand(program, io));
  program.addHelpText('after', [
    '', 'Help topics: svc help exit-codes | environment | output',
    'Every API command also takes -F key=value, -f key=value and --input FILE for any body field.',
    '', 'Examples:',
    '  $ svc auth login --base-url https://api.example.com',
    '  $ svc issues search --types open --sort-by score',
    '  $ svc stats summary -o json',
  ].join('\n') + '\n');
  inherit(program);
  return program;
}

/** addCommand() does not pass on output, error and help settings: copy them down the whole tree. */
function inherit(parent: Command): void {
  for (const child of parent.commands) {
    child.copyInheritedSettings(parent);
    inherit(child);
  }
}

async function groupCommand(g: Group, run: Runner): Promise<Command> {
  const cmd = new Command(g.name).description(g.summary).aliases(g.aliases).helpCommand(false);
  for (const op of await loadGroup(g.name)) cmd.addCommand(buildOperationCommand(op, run));
  cmd.addHelpText('after', `\nRun 'svc ${g.name} <operation> --help' for the flags, API path and examples of an operation.\n`);
  return cmd;
}

function placeholder(name: string, summary: string, aliases: string[]): Command {
  return new Command(name).description(summary).aliases(aliases);
}

function helpCommand(program: Command, io: IO): Command {
  return new Command('help')
    .description(`Help on a command, or a topic: ${Object.keys(HELP_TOPICS).join(', ')}`)
    .argument('[topic...]', 'topic or command path')
    .action((words: string[]) => {
      const topic = HELP_TOPICS[words[0] ?? ''];
      if (topic) { io.stdout.write(topic.text()); return; }
      let cmd: Command = program;
      for (const w of words) {
        const next = cmd.commands.find((c) => c.name() === w || c.aliases().includes(w));
        if (!next) {
          cmd.error(`unknown help topic or command '${words.join(' ')}'`, { exitCode: 2, code: 'svc.unknownHelp' });
        }
        cmd = next!;
      }
      cmd.outputHelp();
    });
}
