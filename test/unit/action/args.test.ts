/** The action's `args` input split as a shell splits a command line, or refused (src/action/args.ts). */
import { describe, expect, it } from 'vitest';
import { ArgsError, splitArgs } from '../../../src/action/args.js';
import { execFileSync } from 'node:child_process';

/** bash's own words for the same text (printf of each), where the text has nothing bash would expand. */
const bashWords = (text: string): string[] => {
  const script = 'set -f; eval "w=( $T )"; [ ${#w[@]} -eq 0 ] || printf \'%s\\0\' "${w[@]}"';
  const out = execFileSync('bash', ['--noprofile', '--norc', '-c', script], { encoding: 'utf8', env: { PATH: process.env.PATH, T: text } });
  return out.split('\0').slice(0, -1);
};

describe('splitArgs', () => {
  it('keeps every line of `args: |`, one flag or several per line', () => {
    expect(splitArgs('--diff auto\n--comment\n--max-high 3 --max-total 10\n')).toEqual(['--diff', 'auto', '--comment', '--max-high', '3', '--max-total', '10']);
    expect(splitArgs('')).toEqual([]);
    expect(splitArgs('  \n\t\n')).toEqual([]);
    // CRLF (a workflow file saved on Windows).
    expect(splitArgs('--diff auto\r\n--comment\r\n')).toEqual(['--diff', 'auto', '--comment']);
  });

  it('honours quotes, escapes and comments as bash does', () => {
    const cases = [
      `--search-query 'sql injection' --issue-url "https://svc.example/issues/{id}"`,
      `--markdown "a \\"quoted\\" name.md" --policy 'it'\\''s.yml'`,
      `--title=a\\ b "x"'y'z ""`,
      `--diff auto # the base of the pull request\n--comment`,
      `--flag=a#b '#not-a-comment'`,
      `--a "line\\\ncontinued" b\\\nc`,
      `"back\\\\slash" 'back\\slash' "keep \\n"`,
    ];
    for (const text of cases) expect(splitArgs(text), text).toEqual(bashWords(text));
    expect(splitArgs(`--x ''`)).toEqual(['--x', '']);
  });

  it('refuses what a shell would expand or act on, naming line, column and the fix', () => {
    const refused: Array<[string, RegExp]> = [
      ['--max-high $LIMIT', /^args, line 1, column 12: a `\$` \(a shell would expand a variable there\): svc runs no shell/],
      ['--ok\n--x "${HOME}"', /^args, line 2, column 6: a `\$`/],
      ['--x `id`', /^args, line 1, column 5: a backtick/],
      ['--x a | tee', /an unquoted `\|` \(a shell operator\)/],
      ['--x a; rm', /an unquoted `;`/],
      ['--x a > out', /an unquoted `>`/],
      ['--x (a)', /an unquoted `\(`/],
      ['--rule-id *', /an unquoted `\*` \(a shell would expand it to file names\): quote it \('\*'\)/],
      ['--x a?', /an unquoted `\?`/],
      ['--x [ab]', /an unquoted `\[`/],
      ['--x {a,b}', /an unquoted `\{` \(a shell would expand it to a brace list\)/],
      ['--policy ~/p.yml', /an unquoted `~` \(a shell would expand it to the home directory\)/],
      ["--x 'open", /a single quote that is not closed/],
      ['--x "open', /a double quote that is not closed/],
      ['--x a\\', /a backslash at the end/],
    ];
    for (const [text, said] of refused) {
      let err: unknown;
      try { splitArgs(text); } catch (e) { err = e; }
      expect(err, text).toBeInstanceOf(ArgsError);
      expect((err as Error).message, text).toMatch(said);
    }
    // Quoted, each is an ordinary character; a ~ inside a word too.
    expect(splitArgs(`'$x' '*' "a|b" '{a,b}' a~b "~"`)).toEqual(['$x', '*', 'a|b', '{a,b}', 'a~b', '~']);
  });
});
