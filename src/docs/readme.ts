/** Markdown for the README sections that must match the code (checked by a test). */
import { BULK_EXIT_NOTE, EXIT_CODE_TABLE } from '../core/exit-codes.js';
import { environmentRows } from '../commands/help-topics.js';

export function exitCodesMarkdown(): string {
  return ['| Code | Meaning |', '|---|---|', ...EXIT_CODE_TABLE.map(({ code, meaning }) => `| ${code} | ${meaning.replace(/\|/g, '\\|')} |`), '', BULK_EXIT_NOTE].join('\n');
}

export function environmentMarkdown(): string {
  return ['| Variable | Meaning |', '|---|---|', ...environmentRows().map(([k, v]) => `| \`${k}\` | ${v.replace(/\|/g, '\\|')} |`)].join('\n');
}

/** Replace the text between `<!-- name:start -->` and `<!-- name:end -->`. */
export function fillMarkers(text: string, name: string, content: string): string {
  const re = new RegExp(`(<!-- ${name}:start -->\\n)[\\s\\S]*?(<!-- ${name}:end -->)`);
  if (!re.test(text)) throw new Error(`no ${name} markers`);
  return text.replace(re, `$1${content}\n$2`);
}
