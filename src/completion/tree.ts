/**
 * The commander tree -> a plain completion model: every command path with its subcommands, flags and
 * what each flag's value is. The shell script generators and the command reference read only this,
 * so a command or flag added anywhere in the tree is picked up without being listed twice.
 */
import type { Argument, Command, Help, Option } from 'commander';
import { aliasesOf, hintOf, type ValueHint } from './hints.js';

export interface FlagModel {
  /** `-o`, `--output`: short first. */
  names: string[];
  description: string;
  /** What the value is; absent for flags that take none. */
  value?: ValueHint;
  /** Other long names it answers to (`--vuln-classes`): their values complete, they are not offered. */
  aliases?: string[];
}

export interface CommandModel {
  name: string;
  aliases: string[];
  description: string;
  /** Canonical names from the root, e.g. ['issues', 'search']; [] for the root. */
  path: string[];
  /** Own flags (with -h/--help); the root's are the global flags. */
  flags: FlagModel[];
  commands: CommandModel[];
  /** What each positional argument is, in order. */
  args: ValueHint[];
  /** The last argument repeats. */
  variadic: boolean;
}

export interface CompletionModel {
  name: string;
  root: CommandModel;
  /** Flags every command accepts (the root's, without -h/--help). */
  globals: FlagModel[];
  /** `svc help <topic>` topics. */
  topics: ReadonlyArray<{ name: string; summary: string }>;
}

/** Long flag names whose value is a path even when the placeholder does not say so. */
const FILE_FLAGS = new Set(['--input', '--sarif', '--junit', '--markdown', '--state']);

function valueOf(option: Option): ValueHint | undefined {
  if (!option.required && !option.optional) return undefined;
  const explicit = hintOf(option);
  if (explicit) return explicit;
  if (option.argChoices) return { kind: 'choice', values: [...option.argChoices] };
  if (option.long === '--profile') return { kind: 'profile' };
  if (option.long === '--field') return { kind: 'at-file' };
  const placeholder = /<([^>]*)>|\[([^\]]*)\]/.exec(option.flags);
  const name = placeholder?.[1] ?? placeholder?.[2] ?? '';
  if (/\b(file|path|dir)\b/i.test(name) || (option.long !== undefined && FILE_FLAGS.has(option.long))) return { kind: 'file' };
  return { kind: 'any' };
}

function argValue(arg: Argument): ValueHint {
  const explicit = hintOf(arg);
  if (explicit) return explicit;
  if (arg.argChoices) return { kind: 'choice', values: [...arg.argChoices] };
  return { kind: 'any' };
}

function flagOf(option: Option): FlagModel {
  const names = [option.short, option.long].filter((n): n is string => typeof n === 'string');
  const value = valueOf(option);
  const aliases = aliasesOf(option);
  return { names, description: oneLine(option.description), ...(value ? { value } : {}), ...(aliases.length ? { aliases: [...aliases] } : {}) };
}

/** A description on one line, for the shells' candidate descriptions. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function commandOf(cmd: Command, path: string[], help: Help): CommandModel {
  return {
    name: cmd.name(),
    aliases: cmd.aliases(),
    description: oneLine(cmd.description()),
    path,
    flags: help.visibleOptions(cmd).map(flagOf),
    commands: help.visibleCommands(cmd).map((c) => commandOf(c, [...path, c.name()], c.createHelp())),
    args: cmd.registeredArguments.map(argValue),
    variadic: cmd.registeredArguments.at(-1)?.variadic === true,
  };
}

export function buildModel(program: Command): CompletionModel {
  const root = commandOf(program, [], program.createHelp());
  const globals = root.flags.filter((f) => !f.names.includes('--help'));
  const helpCmd = root.commands.find((c) => c.args[0]?.kind === 'help');
  const topics = helpCmd?.args[0]?.kind === 'help' ? helpCmd.args[0].topics : [];
  return { name: program.name(), root, globals, topics };
}

/** Every command of the model, depth first, the root first. */
export function allCommands(model: CompletionModel): CommandModel[] {
  const out: CommandModel[] = [];
  const walk = (c: CommandModel) => { out.push(c); c.commands.forEach(walk); };
  walk(model.root);
  return out;
}
