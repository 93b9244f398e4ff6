/**
 * How help looks everywhere: subcommand terms without "[options]" and with every alias, enum choices
 * as `[one of: a, b]`, and per-command help that ends with one compact line of global flags instead
 * of repeating the whole global block (`svc help global-flags` has it in full).
 */
import type { Command, Help, Option } from 'commander';
import { GLOBAL_OPTIONS } from './globals.js';
import { shellWords } from '../output/text-width.js';

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

/**
 * The last step of every help screen, topic and error: a line wider than `width` is broken between
 * words, never inside one. Continuation lines hang under the description when the line is a
 * `term  description` row, else under the line's own indent (a word longer than the width stays
 * whole on its own line). Lines that fit are left as they are.
 */
export function fitText(text: string, width: number): string {
  return text.split('\n').map((line) => (line.length <= width ? line : fitLine(line, width))).join('\n');
}

function fitLine(line: string, width: number): string {
  const lead = /^ */.exec(line)![0];
  const row = /^( *\S(?:\S| (?! ))*? {2,})(?=\S)/.exec(line);
  // A `term  description` row hangs under its description; `Label: text` and `$ command` lines by 2.
  const hang = row && row[1].length <= width - 24 ? row[1].length : lead.length + (/^ *(?:[#$] |[A-Za-z][\w -]{0,24}: )/.test(line) ? 2 : 0);
  const head = row && row[1].length === hang ? row[1] : lead;
  // An example command is continued with ` \` so that it still pastes into a shell as one command.
  const shell = /^ *\$ /.test(line);
  const room = shell ? width - 2 : width;
  const out: string[] = [];
  let cur = head;
  let fresh = true;
  // A command breaks only between its shell words: a ` \` inside quotes would change the value
  // pasted ("Security \<newline>    fix" is "Security     fix" to the shell).
  const words = shell ? shellWords(line.slice(head.length)) : commandsWhole(line.slice(head.length).split(/ +/).filter(Boolean), width - hang);
  for (const word of words) {
    if (!fresh && cur.length + 1 + word.length > room) {
      out.push(shell ? `${cur} \\` : cur);
      cur = ' '.repeat(hang) + word;
    } else cur = fresh ? cur + word : `${cur} ${word}`;
    fresh = false;
  }
  out.push(cur);
  return out.join('\n');
}

/**
 * Prose words with each command it names (`svc scans list --scan-id X`, up to a word that ends with
 * `;` `,` `)` or a quote) made one unit when it fits `room`: a command broken over two lines by a
 * hard wrap is copied as two commands.
 */
function commandsWhole(words: string[], room: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    if (!/^[('`"]?svc$/.test(words[i])) { out.push(words[i]); continue; }
    let end = i;
    while (end + 1 < words.length && !/[;,)'`"]$/.test(words[end])) end++;
    const unit = words.slice(i, end + 1).join(' ');
    if (unit.length <= room) { out.push(unit); i = end; } else out.push(words[i]);
  }
  return out;
}
