/** Operation row -> commander command: flags from the schema, help from the row, one run step. */
import { Command, Option } from 'commander';
import type { Operation } from '../operations/types.js';
import { commandName } from '../operations/index.js';
import { argName, flagSpecs, typeText, type FlagSpec } from './schema-flags.js';
import type { Runner } from './runner.js';

export interface OperationFlags {
  specs: FlagSpec[];
  /** Commander attribute name of each spec's option. */
  attribute: Map<FlagSpec, string>;
  /** Commander attribute names of the row's follow-up flags (`--wait`, ...). */
  followUp?: string[];
}

const SOURCE_LABEL = { spec: '', notes: ' {field notes}', inferred: ' {inferred}' } as const;

/** Repeatable flag: each use may hold a comma-separated list. */
export function collectList(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), ...value.split(',').map((v) => v.trim()).filter((v) => v !== '')];
}
const collect = (value: string, previous: string[] | undefined) => [...(previous ?? []), value];

export function optionsFor(spec: FlagSpec): Option[] {
  const long = `--${spec.flag}`;
  const suffix = `${SOURCE_LABEL[spec.source]}`;
  const dflt = spec.defaultValue !== undefined ? ` (default: ${String(spec.defaultValue)})` : '';
  const desc = `${spec.description}${dflt}${suffix}`.trim();
  if (spec.kind === 'boolean') {
    return [
      new Option(long, `${desc} [boolean]`),
      new Option(`--no-${spec.flag}`, `Send ${spec.path.join('.')}: false`),
    ];
  }
  // Enum choices are listed by commander itself; other types get their own note.
  const opt = new Option(`${long} <${spec.placeholder}>`, spec.kind === 'enum' ? desc : `${desc} [${typeText(spec)}]`);
  if (spec.kind === 'enum') opt.choices(spec.choices!);
  if (spec.kind === 'array') opt.argParser(collectList);
  return [opt];
}

export function buildOperationCommand(op: Operation, run: Runner): Command {
  const { name, alias } = commandName(op);
  const cmd = new Command(name).description(op.summary + (op.source === 'notes' ? ' [beyond the spec]' : ''));
  if (alias) cmd.alias(alias);
  if (op.positional) cmd.argument(`[${argName(op.positional)}]`, `${op.positional} (same as --${flagSpecs({ [op.positional]: op.request.shape[op.positional] })[0].flag})`);
  const specs = flagSpecs(op.request.shape);
  const attribute = new Map<FlagSpec, string>();
  for (const spec of specs) {
    const [main, ...rest] = optionsFor(spec);
    attribute.set(spec, main.attributeName());
    cmd.addOption(main);
    for (const o of rest) cmd.addOption(o);
  }
  cmd.option('-F, --field <key=value>', 'Add a typed body field: numbers, true/false, null, JSON, @file (repeatable)', collect);
  cmd.option('-f, --raw-field <key=value>', 'Add a string body field (repeatable)', collect);
  cmd.option('--input <file|->', 'Read the whole JSON body from a file or stdin; flags win over it');
  if (op.pagination) {
    cmd.option('--all', `Fetch every page, streamed in order (-o json: an array of items), checked against ${op.pagination.total}`);
    cmd.option('--concurrency <n>', 'Pages fetched at once with --all, 1 to 16 (default 4)');
  }
  const followUp: string[] = [];
  for (const extra of op.followUp?.options ?? []) {
    const opt = new Option(extra.flags, extra.description);
    followUp.push(opt.attributeName());
    cmd.addOption(opt);
  }
  if (op.destructive) cmd.option('-y, --yes', 'Do not ask for confirmation (required when not on a terminal)');
  cmd.addHelpText('after', () => operationHelpFooter(op));
  cmd.action(async (...args: unknown[]) => {
    const command = args[args.length - 1] as Command;
    const positional = op.positional ? (args[0] as string | undefined) : undefined;
    await run(async (ctx) => {
      const { runOperation } = await import('./run-operation.js');
      await runOperation(ctx, op, { specs, attribute, followUp }, command.opts(), positional);
    });
  });
  return cmd;
}

export function operationHelpFooter(op: Operation): string {
  const lines = ['', `API: POST ${op.path}${op.source === 'notes' ? '  (beyond the spec: seen in public clients, see the field notes)' : ''}`];
  lines.push(`Retried on failure: ${op.safe ? 'yes (read-only)' : 'only if the request never reached the server, or on 429'}`);
  if (op.required?.length) lines.push(`Required by svc: ${op.required.join(', ')}`);
  if (op.description) lines.push('', op.description);
  lines.push('', 'Flags marked {field notes} come from what public clients send; {inferred} ones are our reading, not the spec.');
  lines.push('', 'Examples:');
  for (const ex of op.examples) lines.push(`  # ${ex.desc}`, `  $ ${ex.cmd}`);
  return lines.join('\n') + '\n';
}
