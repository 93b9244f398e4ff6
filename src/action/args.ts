/**
 * The action's `args` input as people write it: one flag per line (`args: |`), several on a line,
 * quoted values, comments. Split into words as a POSIX shell splits a command line, with no shell:
 *
 * - spaces, tabs and line breaks separate words; `#` at the start of a word comments out the rest
 *   of its line;
 * - `'…'` keeps everything literally; `"…"` too, except that `\` escapes `"`, `\`, `$`, `` ` `` and a
 *   line break; `\` outside quotes escapes the next character (and `\` + line break joins lines);
 * - anything a shell would expand or act on is refused, never passed on changed or unchanged:
 *   `$` and `` ` `` (variables, commands: the workflow's `${{ }}` or the step's `env:` give values),
 *   `| & ; < > ( )` (operators), unquoted `* ? [` (file names), `{ }` (brace expansion) and a `~` that
 *   starts a word (the home directory). Quoted, each is an ordinary character.
 *
 * A refusal names the line and column, the character, and how to write it instead.
 */

export class ArgsError extends Error {}

const OPERATORS = new Set(['|', '&', ';', '<', '>', '(', ')']);
const GLOBS = new Set(['*', '?', '[']);
const BRACES = new Set(['{', '}']);

/** The words of `text`, or an ArgsError saying what a shell would have done that svc will not. */
export function splitArgs(text: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  let i = 0;
  const where = (at: number) => {
    const before = text.slice(0, at);
    const line = before.split('\n').length;
    return `line ${line}, column ${at - before.lastIndexOf('\n')}`;
  };
  const refuse = (at: number, what: string, fix: string): never => {
    throw new ArgsError(`args, ${where(at)}: ${what}: ${fix}`);
  };
  const expansion = (at: number, c: string) => refuse(
    at,
    c === '$' ? 'a `$` (a shell would expand a variable there)' : 'a backtick (a shell would run a command there)',
    "svc runs no shell: put the value in the workflow (${{ … }}) or the step's env, or quote a literal one in single quotes",
  );
  const end = () => {
    if (word !== undefined) words.push(word);
    word = undefined;
  };
  while (i < text.length) {
    const c = text[i];
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      end();
      i += 1;
    } else if (c === '#' && word === undefined) {
      while (i < text.length && text[i] !== '\n') i += 1;
    } else if (c === "'") {
      const close = text.indexOf("'", i + 1);
      if (close < 0) refuse(i, 'a single quote that is not closed', "close it (a ' inside single quotes is written '\\'')");
      word = (word ?? '') + text.slice(i + 1, close);
      i = close + 1;
    } else if (c === '"') {
      let value = '';
      let j = i + 1;
      for (;;) {
        if (j >= text.length) refuse(i, 'a double quote that is not closed', 'close it (a " inside double quotes is written \\")');
        const d = text[j];
        if (d === '"') break;
        if (d === '$' || d === '`') expansion(j, d);
        if (d === '\\' && j + 1 < text.length && '"\\$`\n'.includes(text[j + 1])) {
          if (text[j + 1] !== '\n') value += text[j + 1];
          j += 2;
          continue;
        }
        value += d;
        j += 1;
      }
      word = (word ?? '') + value;
      i = j + 1;
    } else if (c === '\\') {
      if (i + 1 >= text.length) refuse(i, 'a backslash at the end', 'remove it, or quote a literal one');
      if (text[i + 1] !== '\n') word = (word ?? '') + text[i + 1];
      i += 2;
    } else if (c === '$' || c === '`') {
      expansion(i, c);
    } else if (OPERATORS.has(c)) {
      refuse(i, `an unquoted \`${c}\` (a shell operator)`, `svc runs no shell: quote it ('${c}') to pass it as text`);
    } else if (GLOBS.has(c) || BRACES.has(c) || (c === '~' && word === undefined)) {
      const why = c === '~' ? 'the home directory' : BRACES.has(c) ? 'a brace list' : 'file names';
      refuse(i, `an unquoted \`${c}\` (a shell would expand it to ${why})`, `quote it ('${c}') to pass it as it is`);
    } else {
      word = (word ?? '') + c;
      i += 1;
    }
  }
  end();
  return words;
}
