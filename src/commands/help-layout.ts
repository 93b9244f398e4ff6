/**
 * How help looks everywhere: subcommand terms without "[options]" and with every alias, enum choices
 * as `[one of: a, b]`, and per-command help that ends with one compact line of global flags instead
 * of repeating the whole global block (`svc help global-flags` has it in full).
 */
import type { Command, Help, Option } from 'commander';
import { GLOBAL_OPTIONS } from './globals.js';

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

/** Word-wrap a paragraph to `width` columns, continuation lines indented by `indent`. */
export function wrap(text: string, width: number, indent = ''): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && (line + ' ' + word).length > width) {
      lines.push(line);
      line = indent + word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines.join('\n');
}

/** The line every command's help ends with. */
export function globalFlagsFooter(width: number): string {
  return wrap(`Global flags: ${globalFlagsSummary()}. Details: svc help global-flags`, Math.max(40, width), '  ');
}
