/**
 * Path globs of the policy file (`path: src/legacy/**`), matched against an issue's
 * repository-relative path with forward slashes, by picomatch (the globs face users: nested braces,
 * ranges and escapes as they expect). Syntax: `*` (any characters but `/`), `**` (any
 * characters, `/` included; `**` then `/` also matches no directory at all), `?` (one character but
 * `/`), `[abc]`, `[a-z]`, `[!abc]`, `{a,b}` (nesting: `{a,{b,c}}`), `{1..3}`; `\` escapes the next
 * character. Dot files match like any other. A pattern without a `/` matches the file name in any
 * directory (as .gitignore does), e.g. `*.test.js`; a trailing `/` means everything below.
 */

import picomatch from 'picomatch';

export class GlobError extends Error {
  override readonly name = 'GlobError';
}

/**
 * Checks what a user can get wrong, with a message that says what (picomatch would read most of
 * these as literal characters, or match nothing): a lone trailing `\`, a `[` without its `]`, an
 * empty `[ ]`, a `]` or `}` without its opening, a `{` without its `}`. Braces may nest.
 */
function checkGlob(glob: string, pattern: string): void {
  let depth = 0;
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === '\\') {
      if (i + 1 >= pattern.length) throw new GlobError(`'${glob}' ends with a lone \\`);
      i++;
    } else if (ch === '[') {
      const end = pattern.indexOf(']', i + 2);
      if (end < 0) throw new GlobError(`'${glob}' has a [ without its ]`);
      if (/^[!^]?$/.test(pattern.slice(i + 1, end))) throw new GlobError(`'${glob}' has an empty [ ]`);
      i = end;
    } else if (ch === ']') {
      throw new GlobError(`'${glob}' has a ] without its [`);
    } else if (ch === '{') {
      depth++;
    } else if (ch === '}') {
      if (--depth < 0) throw new GlobError(`'${glob}' has a } without its {`);
    }
  }
  if (depth > 0) throw new GlobError(`'${glob}' has a { without its }`);
}

/** Compiles a glob (picomatch, dot files included) to an anchored regular expression; throws GlobError on a malformed pattern. */
export function globToRegExp(glob: string): RegExp {
  if (glob.trim() === '') throw new GlobError('empty glob');
  let pattern = glob.trim().replace(/^\.\//, '');
  const anchored = pattern.replace(/\/$/, '').includes('/');
  if (pattern.startsWith('/')) pattern = pattern.slice(1);
  // A trailing slash means "everything below this directory".
  if (pattern.endsWith('/')) pattern += '**';
  checkGlob(glob, pattern);
  try {
    // Without a slash it matches the file name in any directory: `**/` matches no directory too.
    return picomatch.makeRe(anchored ? pattern : `**/${pattern}`, { dot: true, strictBrackets: true, posix: true });
  } catch (err) {
    throw new GlobError(`'${glob}': ${(err as Error).message}`);
  }
}

export function globMatches(re: RegExp, path: string): boolean {
  return re.test(path.replace(/\\/g, '/').replace(/^(\.\/)+/, '').replace(/^\/+/, ''));
}

/**
 * A repository-relative path normalised: backslashes as slashes, `./` and empty segments dropped,
 * `..` applied. Undefined when it leaves the repository (`../x`, `a/../../x`) or is absolute
 * (`/etc/x`, `C:/x`): such a path is outside what any `path:` entry may accept.
 */
export function repoPath(path: string): string | undefined {
  const p = path.replace(/\\/g, '/');
  if (/^[a-zA-Z]:\//.test(p)) return undefined;
  const out: string[] = [];
  for (const seg of p.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (out.length === 0) return undefined;
      out.pop();
    } else out.push(seg);
  }
  return out.join('/');
}
