/**
 * How help looks everywhere: subcommand terms without "[options]" and with every alias, enum choices
 * as `[one of: a, b]`, and per-command help that ends with one compact line of global flags instead
 * of repeating the whole global block (`svc help global-flags` has it in full).
 */
import type { Command, Help, Option } from 'commander';
import { GLOBAL_OPTIONS } from './globals.js';
import { fitText } from '../output/fit-text.js';

type HelpConfig = Partial<Help>;

export const HELP_CONFIG: HelpConfig = {
  showGlobalOptions: false,
  sortSubcommands: false,
  subcommandTerm(cmd: Command): string {
    const args = cmd.registeredArguments.map((a) => {
      const name = a.name() + (a.variadic ? '...' : '');
      return a.required ? `<${name}>` : `[${name}]`;
    });
    return [[cmd.name(), ...cmd.aliases()].join('|'), ...args].join(' ');
  },
  optionDescription(option: Option): string {
    let text = option.description;
    if (option.argChoices && !/\bone of:/.test(text)) text += ` [one of: ${option.argChoices.join(', ')}]`;
    const takesValue = option.required || option.optional;
    if (option.defaultValue !== undefined && takesValue) {
      text += ` (default: ${option.defaultValueDescription ?? JSON.stringify(option.defaultValue)})`;
    }
    return text;
  },
};

/** `-o/--output <format>, --json, ...`: every global flag in one line. */
function globalFlagsSummary(): string {
  return GLOBAL_OPTIONS.map((o) => o.flags.replace(/, /, '/')).join(', ');
}

/** The line every command's help ends with, fitted (the reference removes it by its text). */
export function globalFlagsFooter(width: number): string {
  return fitText(`Global flags: ${globalFlagsSummary()}. Details: svc help global-flags`, Math.max(40, width));
}

/**
 * `term  description` rows, one a line, for the fitter: the terms padded to the widest of those no
 * wider than `most`; a longer term stands on its own line, its description under the others'. Each
 * description is one paragraph (one line), which fitText wraps under itself.
 */
export function termRows(rows: ReadonlyArray<readonly [string, string]>, indent = '  ', most = 30): string[] {
  const column = Math.max(0, ...rows.map(([t]) => t.length).filter((n) => n <= most));
  return rows.map(([term, text]) => (term.length <= column
    ? `${indent}${term.padEnd(column)}  ${text}`
    : `${indent}${term}\n${' '.repeat(indent.length + column + 2)}${text}`));
}
