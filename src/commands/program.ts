/**
 * The commander tree. Only the group named on the command line is loaded (with its zod schemas);
 * the others are registered by name and summary, which is all top-level help needs.
 */
import type { EventEmitter } from 'node:events';
import { Argument, Command, Option } from 'commander';
import { hint } from '../completion/hints.js';
import type { IO } from '../context.js';
import { GROUPS, commandName, findGroup, loadGroup, type Group, type Operation } from '../operations/index.js';
import { GLOBAL_OPTIONS, firstCommandWord } from './globals.js';
import { HELP_TOPICS } from './help-topics.js';
import { HELP_CONFIG, globalFlagsFooter } from './help-layout.js';
import type { Runner } from './runner.js';
import { installSuggestions } from './suggest.js';

/** Built-in commands, each loaded only when named. */
export const BUILTINS: ReadonlyArray<{ name: string; summary: string; hidden?: boolean; load: () => Promise<(run: Runner) => Command> }> = [
  { name: 'auth', summary: 'Log in, check and log out', load: async () => (await import('./builtin/auth.js')).authCommand },
  { name: 'config', summary: 'Read and change profile settings', load: async () => (await import('./builtin/config.js')).configCommand },
  { name: 'api', summary: 'Call any API operation by path', load: async () => (await import('./builtin/api.js')).apiCommand },
  { name: 'completion', summary: 'Print the shell completion script (bash, zsh, fish)', load: async () => (await import('./builtin/completion.js')).completionCommand },
  { name: '__complete', summary: 'Values for the completion scripts', hidden: true, load: async () => (await import('./builtin/completion.js')).completeCommand },
  { name: 'gate', summary: 'Pass or fail a build on the open issues in a scope (for CI)', load: async () => (await import('../gate/command.js')).gateCommand },
  { name: 'sandbox', summary: 'Run a local stand-in of the service (no account needed)', load: async () => (await import('./builtin/sandbox.js')).sandboxCommand },
];

/** Help is wrapped at 100 columns, or narrower on a narrow terminal. */
export const HELP_WIDTH = 100;
export const helpWidth = (columns?: number) => Math.min(columns ?? HELP_WIDTH, HELP_WIDTH);

export const DESCRIPTION = 'svc: the command line for the Code Security Scanning Service';

export async function buildProgram(argv: readonly string[], run: Runner, io: IO, version: string, onError: (message: string) => void): Promise<Command> {
  installSuggestions();
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
      getOutHelpWidth: () => helpWidth(io.columns),
      getErrHelpWidth: () => HELP_WIDTH,
    })
    .configureHelp(HELP_CONFIG);
  for (const o of GLOBAL_OPTIONS) {
    const opt = new Option(o.flags, o.description).helpGroup('Global flags (work with every command):');
    if (o.choices) opt.choices(o.choices);
    program.addOption(opt);
  }

  let word = firstCommandWord(argv);
  if (word === 'help') word = argv[argv.indexOf('help') + 1];
  // The completion scripts are generated from the whole tree; `__complete` (TAB-time) needs none of it.
  const everything = word === 'completion';
  program.commandsGroup('API commands (one per operation of the service):');
  for (const g of GROUPS) {
    const wanted = everything || findGroup(word ?? '') === g;
    program.addCommand(wanted ? await groupCommand(g, run, everything ? undefined : argv) : placeholder(g.name, g.summary, g.aliases));
  }
  program.commandsGroup('Other commands:');
  for (const b of BUILTINS) {
    program.addCommand(word === b.name || everything ? (await b.load())(run) : placeholder(b.name, b.summary, []), { hidden: b.hidden === true });
  }
  program.addCommand(helpCommand(program, io));
  program.addHelpText('after', [
    '', `Help topics: ${Object.keys(HELP_TOPICS).map((t) => `svc help ${t}`).join(' | ')}`,
    "Run 'svc <group> --help' to list its operations, 'svc <group> <op> --help' for flags and examples.",
    'Every API command also takes -F key=value, -f key=value and --input FILE for any body field.',
    '', 'Examples:',
    '  # Log in once (prompts for the token id and, hidden, the secret)',
    '  $ svc auth login --base-url https://api.example.com',
    '  # Open issues, highest score first',
    '  $ svc issues search --types open --sort-by score',
    '  # The organization\'s posture as JSON',
    '  $ svc stats summary -o json',
  ].join('\n') + '\n');
  // After the command's own footer (whose text ends with a blank line), or right after its flags.
  program.addHelpText('afterAll', ({ command }) => {
    if (command === program) return '';
    const ownFooter = (command as unknown as EventEmitter).listenerCount('afterHelp') > 0;
    return (ownFooter ? '' : '\n') + globalFlagsFooter(io.columns ?? 100);
  });
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

/**
 * A group's command with its operations. When argv names one of them, only that one is built in
 * full (flags from its schema) and the others are stand-ins without flags, which is all that
 * dispatch, "did you mean" and the group's list of operations need. Without one, or when help is
 * asked for, every operation is built.
 */
async function groupCommand(g: Group, run: Runner, argv?: readonly string[]): Promise<Command> {
  const cmd = new Command(g.name).description(g.summary).aliases(g.aliases).helpCommand(false).usage('<operation> [flags]').commandsGroup('Operations:');
  // Loaded here, not at the top: it pulls in zod, which top-level help and --version never need.
  const { buildOperationCommand, operationStandIn } = await import('./operation/command.js');
  const ops = await loadGroup(g.name);
  const named = (op: Operation) => {
    const { name, alias } = commandName(op);
    return argv!.includes(name) || (alias !== undefined && argv!.includes(alias));
  };
  const help = argv?.some((a) => a === '-h' || a === '--help' || a === 'help');
  const full = argv && !help && ops.some(named) ? named : () => true;
  for (const op of ops) cmd.addCommand(full(op) ? buildOperationCommand(op, run) : operationStandIn(op));
  const first = ops[0];
  cmd.addHelpText('after', [
    '', `Run 'svc ${g.name} <operation> --help' for the flags, API path and examples of an operation.`,
    ...(aliasExample(ops) ? [`Operations are named in kebab-case; the API's own spellings work too: ${aliasExample(ops)}.`] : []),
    ...(first?.examples[0] ? ['', 'Example:', `  # ${first.examples[0].desc}`, `  $ ${first.examples[0].cmd}`] : []),
  ].join('\n') + '\n');
  return cmd;
}

/** `svc stats issuesBySeverity`: an operation whose API name differs from its command name. */
function aliasExample(ops: Operation[]): string | undefined {
  const op = ops.find((o) => commandName(o).alias);
  return op ? `svc ${op.group} ${op.name}` : undefined;
}

function placeholder(name: string, summary: string, aliases: string[]): Command {
  return new Command(name).description(summary).aliases(aliases);
}

function helpCommand(program: Command, io: IO): Command {
  return new Command('help')
    .description(`Help on a command, or a topic: ${Object.keys(HELP_TOPICS).join(', ')}`)
    .addArgument(hint(new Argument('[topic...]', 'topic or command path'), {
      kind: 'help', topics: Object.entries(HELP_TOPICS).map(([name, t]) => ({ name, summary: t.summary })),
    }))
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
