/** Operation row -> commander command: flags from the schema, help from the row, one run step. */
import { Command, Option } from 'commander';
import type { Operation } from '../../operations/types.js';
import { commandName } from '../../operations/index.js';
import { argName, flagSpecs, typeText, type FlagSpec, type OperationFlags } from '../../request/flags.js';
import { onlyGlobalFlags } from '../globals.js';
import type { Runner } from '../runner.js';
import { hint, hintOf, markAliases } from '../../completion/hints.js';
import { listParser, stringParser } from '../../request/values.js';
import { runOperation } from './run.js';
import { LEVELS } from '../../operations/levels.js';

const SOURCE_LABEL = { spec: '', notes: ' {field notes}', inferred: ' {inferred}' } as const;

const collect = (value: string, previous: string[] | undefined) => [...(previous ?? []), value];

/**
 * One help line per flag: `<description> [<type, enum values>] (service default: x) {field notes}`.
 * Defaults are the service's: svc sends nothing for a flag that is not given.
 */
function flagDescription(spec: FlagSpec): string {
  const dflt = spec.defaultValue !== undefined ? ` (service default: ${String(spec.defaultValue)})` : '';
  const also = flagAliases(spec.flag).map((a) => ` (also --${a})`).join('');
  return `${spec.description}${also} [${typeText(spec)}]${dflt}${SOURCE_LABEL[spec.source]}`.trim();
}

function optionsFor(spec: FlagSpec): Option[] {
  const long = `--${spec.flag}`;
  const desc = flagDescription(spec);
  if (spec.kind === 'boolean') {
    return [
      new Option(long, desc),
      new Option(`--no-${spec.flag}`, `Send ${spec.path.join('.')}: false`),
    ];
  }
  // -R: the repository (gh's short form), on the one repository flag of a command.
  const short = spec.flag === 'repository-id' || spec.flag === 'repository-ids' ? '-R, ' : '';
  const opt = new Option(`${short}${long} <${spec.placeholder}>`, desc);
  if (spec.kind === 'enum') opt.choices(spec.choices!);
  // Lists: repeatable, comma-separated, no empty element; strings: no control character an id or
  // text may not hold (see values.ts). Checked while parsing, before anything is sent.
  if (spec.kind === 'array') opt.argParser(listParser(long, spec.text));
  if (spec.kind === 'string') opt.argParser(stringParser(long, spec.text));
  if (spec.kind === 'array' && spec.itemKind === 'enum') hint(opt, { kind: 'choice', values: spec.choices!, list: true });
  if (spec.kind === 'json') hint(opt, { kind: 'at-file' });
  if (spec.fromFile) {
    const from = new Option(`${long}-from <file|->`, `Read ${long} from a file, or - for stdin`);
    hint(from, { kind: 'file' });
    return [opt, from];
  }
  return [opt];
}

/**
 * The command of an operation with its name, alias, summary and argument, without its flags: all
 * that dispatch, "did you mean" and the group's list of operations use (see groupCommand).
 */
export function operationStandIn(op: Operation): Command {
  const { name, alias } = commandName(op);
  const beyond = op.source === 'notes' && !/beyond the spec/i.test(op.summary) ? ' [beyond the spec]' : '';
  const cmd = new Command(name).description(op.summary + beyond);
  if (alias) cmd.alias(alias);
  if (op.bulk) cmd.argument(`[${argName(op.positional!)}...]`, `one or more ${op.positional}s (same as --${flagSpecs({ [op.positional!]: op.request.shape[op.positional!] })[0].flag}); several make it a bulk action`);
  else if (op.positional) cmd.argument(`[${argName(op.positional)}]`, `${op.positional} (same as --${flagSpecs({ [op.positional]: op.request.shape[op.positional] })[0].flag})`);
  return cmd;
}

/** Shorter spellings users type for words of flag names: `--vuln-classes` for `--vulnerability-classes`. */
const SHORT_WORDS: ReadonlyArray<[RegExp, string]> = [[/(^|-)vulnerability(?=-|$)/g, '$1vuln']];

/** The other names a flag answers to (without dashes). */
function flagAliases(flag: string): string[] {
  const alias = SHORT_WORDS.reduce((f, [re, short]) => f.replace(re, short), flag);
  return alias === flag ? [] : [alias];
}

/**
 * An alias of an option: the same value, parser and choices under another name, stored in the same
 * attribute (so repeated and mixed uses add up), hidden from help (the main flag names it), and
 * known to completion as another name of the flag.
 */
function aliasOption(main: Option, long: string): Option {
  const alias = new Option(main.flags.replace(/^--[\w-]+/, long), main.description).hideHelp();
  if (main.argChoices) alias.choices(main.argChoices);
  const parse = (main as unknown as { parseArg?: (v: string, p: unknown) => unknown }).parseArg;
  if (parse) alias.argParser(parse);
  const attr = main.attributeName();
  alias.attributeName = () => attr;
  const h = hintOf(main);
  if (h) hint(alias, h);
  return alias;
}

/** Add the options of flag specs to a command; returns each spec's commander attribute name. */
export function addFlagOptions(cmd: Command, specs: readonly FlagSpec[]): Map<FlagSpec, string> {
  const attribute = new Map<FlagSpec, string>();
  for (const spec of specs) {
    const [main, ...rest] = optionsFor(spec);
    attribute.set(spec, main.attributeName());
    const aliases = flagAliases(spec.flag);
    if (aliases.length) markAliases(main, aliases.map((a) => `--${a}`));
    cmd.addOption(main);
    for (const o of rest) cmd.addOption(o);
    for (const a of aliases) {
      cmd.addOption(aliasOption(main, `--${a}`));
      for (const o of rest) if (o.negate) cmd.addOption(aliasOption(o, `--no-${a}`));
    }
  }
  return attribute;
}

/**
 * Give a stand-in (operationStandIn) its flags, help footer and run step. Given the command line
 * (`argv`) and no flag on it but global ones, the command gets none of its own options: none is
 * given, and making them (and the row's flag specs) was the largest step of a plain call (~5 M
 * instructions for `issues search`). Any other flag (its own, a misspelt one, --help) makes them all,
 * for commander's parsing, help and "did you mean".
 */
export function completeOperationCommand(cmd: Command, op: Operation, run: Runner, argv?: readonly string[]): Command {
  const bare = argv !== undefined && onlyGlobalFlags(argv);
  let specs: FlagSpec[] | undefined = bare ? undefined : flagSpecs(op.request.shape);
  const attribute = specs ? addFlagOptions(cmd, specs) : new Map<FlagSpec, string>();
  const followUp: string[] = [];
  const flags: OperationFlags = { get specs() { return (specs ??= flagSpecs(op.request.shape)); }, attribute, followUp };
  cmd.addHelpText('after', () => operationHelpFooter(op, flags.specs));
  cmd.action(async (...args: unknown[]) => {
    const command = args[args.length - 1] as Command;
    const positional = op.positional ? (args[0] as string | string[] | undefined) : undefined;
    await run(async (ctx) => {
      await runOperation(ctx, op, flags, command.opts(), positional);
    });
  });
  if (bare) return cmd;
  cmd.option('-F, --field <key=value>', 'Add a typed body field: numbers, true/false, null, JSON, @file (repeatable)', collect);
  cmd.option('-f, --raw-field <key=value>', 'Add a string body field (repeatable)', collect);
  cmd.option('--input <file|->', 'Read the whole JSON body from a file or stdin; flags win over it');
  if (op.pagination) {
    cmd.option('--all', `Fetch every page, streamed in order (-o json: an array of items), checked against ${op.pagination.total}`);
    cmd.option('--concurrency <n>', 'Pages fetched at once with --all, 1 to 16 (default 4)');
  }
  for (const f of op.localFilters?.filters ?? []) {
    const opt = new Option(f.flags, f.description);
    if (f.test === 'level') hint(opt, { kind: 'choice', values: [...LEVELS] });
    cmd.addOption(opt);
  }
  if (op.localLimit) cmd.option('--limit <n>', `Show the first n, highest ${op.localLimit.orderBy} first (applied by svc: the request has no limit field, the service decides how many it sends)`);
  for (const extra of op.followUp?.options ?? []) {
    const opt = new Option(extra.flags, extra.description);
    followUp.push(opt.attributeName());
    cmd.addOption(opt);
  }
  if (op.bulk) {
    cmd.option('--ids-from <file|->', 'Read the ids from a file or stdin: one a line, the NDJSON/JSON of `svc issues search` (its id fields), or the -o json|ndjson record of a bulk run (only its ids with outcome done: how a run is undone)');
    cmd.option('--where <filter=value>', 'Act on the issues `svc issues search` finds with this filter (repeatable): types=open, repository-ids=..., severities-min=7, min-score=70, ...', collect);
    cmd.option('--concurrency <n>', 'Calls at once for several ids, 1 to 16 (default 4)');
    cmd.option('--failed-to <file>', 'Write the ids that failed (or were not sent) to this file, one a line, for --ids-from');
    cmd.option('-y, --yes', 'Do not ask before acting on what --where found (required when not on a terminal)');
  }
  if (op.destructive) cmd.option('-y, --yes', 'Do not ask for confirmation (required when not on a terminal)');
  return cmd;
}

/**
 * What undoes a run of a bulk action, and what it undoes: its inverse fed this run's record, what of
 * that the spec does not state (inferred), or why nothing can. One paragraph a line (fitted by fitText).
 */
function undoLines(op: Operation): string[] {
  const b = op.bulk!;
  const cmd = (name: string) => `svc ${op.group} ${name}`;
  const lines = ['by' in b.undo
    ? `Undo: ${cmd(b.undo.by)} --ids-from RECORD (RECORD: what a run printed with -o json|ndjson; only the ids it did are taken).${b.undo.inferred ? ` Inferred: ${b.undo.inferred}.` : ''}`
    : `Undo: none: ${b.undo.none}.`];
  if (b.undoes) lines.push(`Undoes ${cmd(b.undoes)}: give it that run's record as --ids-from RECORD.`);
  return lines;
}

/** The help after an operation's flags: one paragraph a line, fitted to the terminal by fitText (help-layout.ts). */
function operationHelpFooter(op: Operation, specs: FlagSpec[] = flagSpecs(op.request.shape)): string {
  const lines = ['', `API: POST ${op.path}${op.source === 'notes' ? ' (beyond the spec: seen in public clients, see the field notes)' : ''}`];
  lines.push(`Retried on failure: ${op.safe ? 'yes (read-only)' : 'only if the request never reached the server, or on 429'}`);
  if (op.required?.length) {
    const guessed = op.required.filter((k) => specs.find((s) => s.path[0] === k)?.source !== 'spec');
    lines.push(`Required by svc: ${op.required.join(', ')}`);
    if (op.infer) lines.push(`${op.infer.field}: ${op.infer.how}.`);
    if (guessed.length) lines.push(`Inferred names (${guessed.join(', ')}) are not required when your own -F/-f/--input body names fields svc has no flag for: that body is sent as given, with a warning.`);
  }
  if (op.destructive) lines.push('Destructive: asks for confirmation on a terminal; needs --yes elsewhere');
  if (op.bulk) lines.push(...undoLines(op));
  if (op.description) lines.push('', op.description);
  if (op.localFilters) {
    const flags = op.localFilters.filters.map((f) => f.flags.split(' ')[0]);
    lines.push('', `${flags.join(', ')}: filtered by svc, not the service (${op.localFilters.why}); a page may hold fewer issues than its size, the service's totals (which count unfiltered issues) are left out, and --all reads every page. A note on stderr says how many matched.`);
  }
  const sources = new Set(specs.map((s) => s.source));
  if (sources.has('notes') || sources.has('inferred')) {
    lines.push('', 'Flags come from the API spec unless marked {field notes} (what public clients send) or {inferred} (our reading).');
  }
  lines.push('', op.examples.length > 1 ? 'Examples:' : 'Example:');
  for (const ex of op.examples) lines.push(`  # ${ex.desc}`, `  $ ${ex.cmd}`);
  return lines.join('\n') + '\n';
}
