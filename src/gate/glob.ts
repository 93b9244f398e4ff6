/**
 * Path globs of the policy file (`path: src/legacy/**`), matched against an issue's
 * repository-relative path with forward slashes. Syntax: `*` (any characters but `/`), `**` (any
 * characters, `/` included; `**` then `/` also matches no directory at all), `?` (one character but `/`), `[abc]`,
 * `[a-z]`, `[!abc]`, `{a,b}` (no nesting); `\` escapes the next character. A pattern without a `/`
 * matches the file name in any directory (as .gitignore does), e.g. `*.test.js`.
 */

export class GlobError extends Error {
  override readonly name = 'GlobError';
}

function escapeRegex(ch: string): string {
  return /[\\^$.*+?()[\]{}|/]/.test(ch) ? `\\${ch}` : ch;
}

/** Compiles a glob to an anchored regular expression; throws GlobError on a malformed pattern. */
export function globToRegExp(glob: string): RegExp {
  if (glob.trim() === '') throw new GlobError('empty glob');
  let pattern = glob.trim().replace(/^\.\//, '');
  const anchored = pattern.replace(/\/$/, '').includes('/');
  if (pattern.startsWith('/')) pattern = pattern.slice(1);
  // A trailing slash means "everything below this directory".
  if (pattern.endsWith('/')) pattern += '**';
  let out = '';
  let inBraces = false;
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === '\\') {
      if (i + 1 >= pattern.length) throw new GlobError(`'${glob}' ends with a lone \\`);
      out += escapeRegex(pattern[++i]);
    } else if (ch === '*') {
      if (pattern[i + 1] === '*') {
        const before = i === 0 || pattern[i - 1] === '/';
        i++;
        while (pattern[i + 1] === '*') i++;
        if (before && pattern[i + 1] === '/') {
          out += '(?:.*/)?';
          i++;
        } else {
          out += '.*';
        }
      } else {
        out += '[^/]*';
      }
    } else if (ch === '?') {
      out += '[^/]';
    } else if (ch === '[') {
      const end = pattern.indexOf(']', i + 2);
      if (end < 0) throw new GlobError(`'${glob}' has a [ without its ]`);
      let body = pattern.slice(i + 1, end);
      const negate = body.startsWith('!') || body.startsWith('^');
      if (negate) body = body.slice(1);
      if (body === '') throw new GlobError(`'${glob}' has an empty [ ]`);
      out += `[${negate ? '^' : ''}${body.replace(/[\\\]^]/g, '\\$&')}]`;
      i = end;
    } else if (ch === '{') {
      if (inBraces) throw new GlobError(`'${glob}' nests { } (not supported)`);
      inBraces = true;
      out += '(?:';
    } else if (ch === '}') {
      if (!inBraces) throw new GlobError(`'${glob}' has a } without its {`);
      inBraces = false;
      out += ')';
    } else if (ch === ',' && inBraces) {
      out += '|';
    } else if (ch === ']') {
      throw new GlobError(`'${glob}' has a ] without its [`);
    } else {
      out += escapeRegex(ch);
    }
  }
  if (inBraces) throw new GlobError(`'${glob}' has a { without its }`);
  return new RegExp(anchored ? `^${out}$` : `^(?:.*/)?${out}$`);
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
