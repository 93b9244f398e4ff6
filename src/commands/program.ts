/**
 * The commander tree. Commander parses argv at every level; what it dispatches to is loaded then
 * (a group's rows with their zod schemas, a built-in, an operation's flags), so a call pays only
 * for the command it names. Top-level help needs only names and summaries.
 */
import type { EventEmitter } from 'node:events';
import { Argument, Command, Option } from 'commander';
import { hint } from '../completion/hints.js';
import { terminalWidth, type Env, type IO } from '../core/host.js';
import { GROUPS, commandName, loadGroup, type Group, type Operation } from '../operations/index.js';
import { GLOBAL_OPTIONS, globalFlag, onlyGlobalFlags } from './globals.js';
import { HELP_TOPICS } from './help-topics.js';
import { HELP_CONFIG, globalFlagsFooter } from './help-layout.js';
import { fitText } from '../output/fit-text.js';
import type { Runner } from './runner.js';

/**
 * Built-in commands, each loaded only when commander dispatches to it: `load` fills the command
 * registered under its name (so commander's own parsing, help and errors apply at every level).
 * Made when asked for: a call that names an API group registers none of them (see namedCall).
 */
export const builtins = (): ReadonlyArray<{ name: string; summary: string; hidden?: boolean; load: () => Promise<(run: Runner, cmd: Command) => Command> }> => [
  { name: 'auth', summary: 'Log in, check and log out', load: async () => (await import('./builtin/auth.js')).authCommand },
  { name: 'config', summary: 'Read and change profile settings', load: async () => (await import('./builtin/config.js')).configCommand },
  { name: 'api', summary: 'Call any API operation by path', load: async () => (await import('./builtin/api.js')).apiCommand },
  { name: 'completion', summary: 'Print the shell completion script (bash, zsh, fish)', load: async () => (await import('./builtin/completion.js')).completionCommand },
  { name: '__complete', summary: 'Values for the completion scripts', hidden: true, load: async () => (await import('./builtin/completion.js')).completeCommand },
  { name: 'gate', summary: 'Pass or fail a build on the open issues in a scope (for CI)', load: async () => (await import('./gate/command.js')).gateCommand },
  { name: 'policy', summary: 'Accept risks: issues svc gate does not count until a day (.svc-policy.yml)', load: async () => (await import('./builtin/policy.js')).policyCommand },
  { name: 'sandbox', summary: 'Run a local stand-in of the service (no account needed)', load: async () => (await import('./builtin/sandbox.js')).sandboxCommand },
];

/**
 * Commands whose contents are loaded on first use: an API group (its rows, with zod), a built-in,
 * an operation's flags. Commander dispatches to a command only after its parent's preSubcommand
 * hook, which fills it from here; help and completion fill what they show.
 */
const pending = new WeakMap<Command, () => Promise<void>>();

/** Fill a lazily loaded command (once); nothing for one that is complete. */
async function ensureLoaded(cmd: Command): Promise<void> {
  const load = pending.get(cmd);
  if (!load) return;
  pending.delete(cmd);
  await load();
  // addCommand() does not pass on output, error and help settings: copy them down the new part.
  inherit(cmd);
}

/** Every group, built-in and operation in full: what the completion scripts and the reference show. */
export async function loadEverything(cmd: Command): Promise<void> {
  await ensureLoaded(cmd);
  for (const child of cmd.commands) await loadEverything(child);
}

/** A group: its operations are loaded with it, and each operation's flags when it is dispatched to. */
function lazyGroup(cmd: Command, load: () => Promise<void>): Command {
  pending.set(cmd, load);
  // Commander calls this before it parses the rest of argv with the operation it dispatches to.
  cmd.hook('preSubcommand', (_self, child) => ensureLoaded(child));
  return cmd;
}

/**
 * Help is wrapped at the terminal's width (at most 100 columns; 80, or COLUMNS, on a terminal that
 * reports 0 columns), and at 80 in a pipe.
 */
const HELP_WIDTH = 100;
const PIPE_WIDTH = 80;

const DESCRIPTION = 'svc: the command line for the Code Security Scanning Service';

/** Where each program's commander errors go, with the command each was raised on (see inherit). */
const errorSinks = new WeakMap<Command, (message: string, cmd: Command) => void>();

/**
 * The API group and operation a command line names, when each is a known name (or alias) and
 * nothing else comes before them but global flags: such a call registers only that group, and
 * the group only that operation. Commander's parsing, help and errors of the command are the same
 * either way (none of them names a sibling); what is saved is building the rest of the tree on
 * every call. Anything else (no command, a built-in, an unknown word or flag, `--`) registers
 * every command, for its help, its suggestions and completion.
 */
function namedCall(argv: readonly string[]): { group: Group; op?: string } | undefined {
  const words: string[] = [];
  for (let i = 0; i < argv.length && words.length < 2; i++) {
    const a = argv[i];
    if (!a.startsWith('-')) { words.push(a); continue; }
    const g = globalFlag(a);
    if (!g) return undefined;
    if (g.next) i++;
  }
  const group = GROUPS.find((g) => g.name === words[0] || g.aliases.includes(words[0]));
  return group && { group, op: words[1] };
}

export function buildProgram(run: Runner, io: IO, version: string, onError: (message: string, cmd: Command) => void, env: Env = {}, argv?: readonly string[]): Command {
  const helpWidth = () => Math.min(terminalWidth({ io, env }) ?? PIPE_WIDTH, HELP_WIDTH);
  // commander's message and the command it is about: cli.ts words it (suggest.ts) once parsing has failed.
  const sink = (message: string, cmd: Command) => onError(message, cmd);
  const named = argv && namedCall(argv);
  // A call of global flags only (see namedCall) gets the global options it gives, no other: none can
  // be misspelt, no help is shown, and an absent one reads as not given (`--no-color` and `--no-ci`
  // are read as `=== false`); nor -V (bin/svc.js answers `svc -V` itself).
  const given = named && onlyGlobalFlags(argv) ? new Set(argv.filter((a) => a.startsWith('-')).map((a) => a.split('=')[0])) : undefined;
  const program = new Command('svc')
    .description(DESCRIPTION)
    .usage('<command> [subcommand] [flags]');
  if (!given) program.version(version, '-V, --version', 'Print the version');
  program
    .helpOption('-h, --help', 'Show help')
    .helpCommand(false)
    // svc's own suggestions replace commander's (suggest.ts), from the error commander raises.
    .showSuggestionAfterError(false)
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.stdout.write(fitText(s, helpWidth())),
      // Commander writes here only the help it shows when a command that needs a subcommand got
      // none (`svc`, `svc issues`): svc prints that help on stdout, as a success (see cli.ts).
      // Errors go through outputError.
      writeErr: (s) => io.stdout.write(fitText(s, helpWidth())),
      outputError: (s) => sink(s, program),
      getOutHelpWidth: () => helpWidth(),
      getErrHelpWidth: () => helpWidth(),
    })
    .configureHelp(HELP_CONFIG);
  for (const o of GLOBAL_OPTIONS) {
    if (given && !o.flags.split(/[ ,]+/).some((f) => given.has(f))) continue;
    const opt = new Option(o.flags, o.description).helpGroup('Global flags (work with every command):');
    if (o.choices) opt.choices(o.choices);
    program.addOption(opt);
  }

  program.commandsGroup('API commands (one per operation of the service):');
  for (const g of named ? [named.group] : GROUPS) {
    const cmd = new Command(g.name).description(g.summary).aliases(g.aliases).helpCommand(false).usage('<operation> [flags]').commandsGroup('Operations:');
    program.addCommand(lazyGroup(cmd, () => fillGroup(cmd, g, run, named && { op: named.op, argv: argv! })));
  }
  if (!named) {
    program.commandsGroup('Other commands:');
    for (const b of builtins()) {
      const cmd = new Command(b.name).description(b.summary);
      program.addCommand(cmd, { hidden: b.hidden === true });
      pending.set(cmd, async () => { (await b.load())(run, cmd); });
    }
  }
  program.hook('preSubcommand', async (_self, child) => {
    // The completion scripts are generated from the whole tree; `__complete` (TAB-time) needs none of it.
    if (child.name() === 'completion') await loadEverything(program);
    else await ensureLoaded(child);
  });
  // (The top level's own help: never shown by a call that names a group.)
  if (!named) program.addCommand(helpCommand(program, io, helpWidth));
  if (!named) program.addHelpText('after', [
    '', `Help topics: ${Object.keys(HELP_TOPICS).map((t) => `svc help ${t}`).join(', ')}.`,
    "Run 'svc <group> --help' to list its operations, 'svc <group> <op> --help' for flags and examples. Every API command also takes -F key=value, -f key=value and --input FILE for any body field.",
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
    return (ownFooter ? '' : '\n') + globalFlagsFooter(helpWidth());
  });
  errorSinks.set(program, sink);
  inherit(program);
  return program;
}

/** addCommand() does not pass on output, error and help settings: copy them down the whole tree. */
function inherit(parent: Command): void {
  let root = parent;
  while (root.parent) root = root.parent;
  const sink = errorSinks.get(root);
  for (const child of parent.commands) {
    child.copyInheritedSettings(parent);
    // Each command reports its own errors, so that a suggestion can name it and read its flags.
    if (sink) child.configureOutput({ outputError: (s) => sink(s, child) });
    inherit(child);
  }
}

/**
 * A group's operations, as stand-ins (name, alias, summary, argument: all that dispatch, "did you
 * mean" and the group's help need); the one commander dispatches to gets its flags then.
 */
async function fillGroup(cmd: Command, g: Group, run: Runner, named?: { op?: string; argv: readonly string[] }): Promise<void> {
  // Loaded here, not at the top: it pulls in zod, which top-level help and --version never need.
  const { completeOperationCommand, operationStandIn } = await import('./operation/command.js');
  const ops = await loadGroup(g.name);
  // The operation the command line names, alone (see namedCall); every one for anything else.
  const only = named?.op === undefined ? [] : ops.filter((op) => { const { name, alias } = commandName(op); return name === named.op || alias === named.op; });
  for (const op of only.length ? only : ops) {
    const standIn = operationStandIn(op);
    cmd.addCommand(standIn);
    // The command line, for the operation it names: its flags decide which options are made.
    pending.set(standIn, async () => { completeOperationCommand(standIn, op, run, only.length ? named!.argv : undefined); });
  }
  if (g.name === 'issues' && only.length === 0) {
    // `svc issues triage`: not an operation of the API, a walk through them on a terminal.
    const { completeTriage, triageStandIn } = await import('./triage/command.js');
    const triage = triageStandIn();
    cmd.addCommand(triage);
    pending.set(triage, async () => { completeTriage(triage, run); });
  }
  // (Made when the group's help is shown.)
  cmd.addHelpText('after', () => {
    const first = ops[0];
    return [
      '', `Run 'svc ${g.name} <operation> --help' for the flags, API path and examples of an operation.`,
      ...(aliasExample(ops) ? [`Operations are named in kebab-case; the API's own spellings work too: ${aliasExample(ops)}.`] : []),
      ...(first?.examples[0] ? ['', 'Example:', `  # ${first.examples[0].desc}`, `  $ ${first.examples[0].cmd}`] : []),
    ].join('\n') + '\n';
  });
}

/** `svc stats issuesBySeverity`: an operation whose API name differs from its command name. */
function aliasExample(ops: Operation[]): string | undefined {
  const op = ops.find((o) => commandName(o).alias);
  return op ? `svc ${op.group} ${op.name}` : undefined;
}

function helpCommand(program: Command, io: IO, helpWidth: () => number): Command {
  return new Command('help')
    .description(`Help on a command, or a topic: ${Object.keys(HELP_TOPICS).join(', ')}`)
    .addArgument(hint(new Argument('[topic...]', 'topic or command path'), {
      kind: 'help', topics: Object.entries(HELP_TOPICS).map(([name, t]) => ({ name, summary: t.summary })),
    }))
    .action(async (words: string[]) => {
      const topic = HELP_TOPICS[words[0] ?? ''];
      if (topic) { io.stdout.write(fitText(topic.text(), helpWidth())); return; }
      let cmd: Command = program;
      for (const w of words) {
        await ensureLoaded(cmd);
        const next = cmd.commands.find((c) => c.name() === w || c.aliases().includes(w));
        if (!next) {
          cmd.error(`unknown help topic or command '${words.join(' ')}'`, { exitCode: 2, code: 'svc.unknownHelp' });
        }
        cmd = next!;
      }
      await ensureLoaded(cmd);
      cmd.outputHelp();
    });
}
