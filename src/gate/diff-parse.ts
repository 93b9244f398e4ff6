/**
 * `svc gate --diff`: the lines a change touches, read from `git diff --unified=0 -M` output.
 * Pure: text in, changed files out (the git run is src/git/).
 *
 * Per file of the new side: the line ranges the change adds or modifies (the `+c,d` of every hunk),
 * the points where it only deletes (a hunk `+c,0`: lines removed after new line c), and whether the
 * change has no line information for it (binary files, a file of the work tree git did not diff).
 * Renames follow the new path (the old one is kept, to know it was part of the repository). Deleted
 * files have no new side: their issues are not in the change. Paths are as git prints them: quoted in
 * C style (`"a\tb"`, octal bytes `\303\251`) when they hold unusual characters, plain otherwise
 * (spaces included).
 */

interface ChangedFile {
  /** Path on the new side, relative to the repository root. */
  path: string;
  /** Path on the old side when renamed or copied. */
  from?: string;
  /** Added or modified lines of the new side, as [first, last] (1-based, inclusive), in order. */
  added: Array<[number, number]>;
  /** New line numbers after which lines were only removed (0: at the top of the file). */
  removedAfter: number[];
  /** No line information: binary, or a whole new file not diffed by git (untracked). Every line counts as changed. */
  whole: boolean;
}

export interface ChangeSet {
  /** Files present after the change that it touched, by new path. */
  files: Map<string, ChangedFile>;
  /** Files the change deleted (or renamed away from): part of the repository before it. */
  gone: Set<string>;
}

export class DiffParseError extends Error {
  override readonly name = 'DiffParseError';
}

const ESCAPES: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, '\\': 92 };

/**
 * A path as git prints it: `"..."` with C escapes (octal bytes decoded as UTF-8), else as is.
 * Returns the path and the rest of the text after it.
 */
export function unquotePath(text: string): { path: string; rest: string } {
  if (!text.startsWith('"')) return { path: text, rest: '' };
  const bytes: number[] = [];
  let i = 1;
  for (; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"') {
      return { path: Buffer.from(bytes).toString('utf8'), rest: text.slice(i + 1) };
    }
    if (ch === '\\') {
      const next = text[i + 1];
      const oct = /^[0-7]{3}/.exec(text.slice(i + 1));
      if (oct) {
        bytes.push(parseInt(oct[0], 8));
        i += 3;
      } else if (next !== undefined && ESCAPES[next] !== undefined) {
        bytes.push(ESCAPES[next]);
        i += 1;
      } else {
        throw new DiffParseError(`unknown escape \\${next ?? ''} in the path ${text}`);
      }
      continue;
    }
    bytes.push(...Buffer.from(ch, 'utf8'));
  }
  throw new DiffParseError(`unterminated quoted path ${text}`);
}

/** `a/path` or `"a/path"` of a ---/+++/rename line, without its prefix; undefined for /dev/null. */
function sidePath(raw: string, prefix: string): string | undefined {
  // git appends a tab to ---/+++ paths that contain a space (so that patch(1) can tell where they end).
  const text = raw.replace(/\t$/, '');
  if (text === '/dev/null') return undefined;
  const { path } = unquotePath(text);
  return prefix !== '' && path.startsWith(prefix) ? path.slice(prefix.length) : path;
}

/** The new path of `diff --git a/X b/Y` when it is not said elsewhere (binary or mode-only changes). */
function headerNewPath(rest: string): string | undefined {
  if (rest.startsWith('"')) {
    const a = unquotePath(rest);
    const b = a.rest.trimStart();
    return b.startsWith('"') ? sidePath(b, 'b/') : b.startsWith('b/') ? b.slice(2) : undefined;
  }
  // Unquoted: `a/P b/Q`. Without a rename both paths are equal, so the line is `a/P b/P`.
  if (rest.endsWith('"')) {
    const at = rest.lastIndexOf(' "');
    return at < 0 ? undefined : sidePath(rest.slice(at + 1), 'b/');
  }
  const half = (rest.length - 1) / 2;
  if (Number.isInteger(half) && rest.slice(0, half).startsWith('a/') && rest.slice(half + 1).startsWith('b/') && rest.slice(2, half) === rest.slice(half + 3)) {
    return rest.slice(half + 3);
  }
  return undefined;
}

interface Pending {
  path?: string;
  from?: string;
  deleted: boolean;
  binary: boolean;
  headerPath?: string;
  added: Array<[number, number]>;
  removedAfter: number[];
}

/**
 * Parses `git diff --unified=0 -M --no-color --no-ext-diff` output (the default `a/` and `b/`
 * prefixes). Hunk bodies are skipped by their counts, so no content line is read as a header.
 */
export function parseDiff(text: string): ChangeSet {
  const out: ChangeSet = { files: new Map(), gone: new Set() };
  const lines = text.split('\n');
  let cur: Pending | undefined;
  const flush = () => {
    if (!cur) return;
    const path = cur.deleted ? undefined : cur.path ?? cur.headerPath;
    if (cur.deleted) {
      const gone = cur.from ?? cur.path ?? cur.headerPath;
      if (gone !== undefined) out.gone.add(gone);
    } else if (path === undefined) {
      throw new DiffParseError('a file of the diff names no path git svc could read');
    } else {
      if (cur.from !== undefined && cur.from !== path) out.gone.add(cur.from);
      const file: ChangedFile = { path, added: cur.added, removedAfter: cur.removedAfter, whole: cur.binary };
      if (cur.from !== undefined && cur.from !== path) file.from = cur.from;
      out.files.set(path, file);
    }
    cur = undefined;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.startsWith('diff --git ')) {
      flush();
      cur = { deleted: false, binary: false, added: [], removedAfter: [], headerPath: headerNewPath(line.slice('diff --git '.length)) };
      continue;
    }
    if (!cur) {
      if (line.trim() === '') continue;
      throw new DiffParseError(`unexpected line before the first file of the diff: ${line.slice(0, 80)}`);
    }
    if (line.startsWith('@@ ')) {
      const m = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@/.exec(line);
      if (!m) throw new DiffParseError(`unreadable hunk header: ${line.slice(0, 80)}`);
      const start = Number(m[1]);
      const n = m[2] === undefined ? 1 : Number(m[2]);
      const old = /^@@ -\d+(?:,(\d+))?/.exec(line)!;
      const removed = old[1] === undefined ? 1 : Number(old[1]);
      if (n > 0) cur.added.push([start, start + n - 1]);
      else cur.removedAfter.push(start);
      // Skip the hunk's body: `removed` lines of `-`, `n` lines of `+`, and `\ No newline` notes.
      let left = removed + n;
      while (left > 0 && i + 1 < lines.length) {
        const body = lines[i + 1];
        if (body.startsWith('\\')) { i++; continue; }
        if (!body.startsWith('-') && !body.startsWith('+') && !body.startsWith(' ')) break;
        i++;
        left--;
      }
      while (i + 1 < lines.length && lines[i + 1].startsWith('\\')) i++;
      continue;
    }
    if (line.startsWith('--- ')) {
      const p = sidePath(line.slice(4), 'a/');
      if (p !== undefined && cur.from === undefined && cur.path === undefined) cur.headerPath ??= p;
      continue;
    }
    if (line.startsWith('+++ ')) {
      const p = sidePath(line.slice(4), 'b/');
      if (p === undefined) cur.deleted = true;
      else cur.path = p;
      continue;
    }
    if (line.startsWith('rename from ') || line.startsWith('copy from ')) {
      cur.from = sidePath(line.slice(line.indexOf(' from ') + 6), '');
      continue;
    }
    if (line.startsWith('rename to ') || line.startsWith('copy to ')) {
      cur.path = sidePath(line.slice(line.indexOf(' to ') + 4), '');
      continue;
    }
    if (line.startsWith('deleted file mode ')) { cur.deleted = true; continue; }
    if (line.startsWith('Binary files ') || line === 'GIT binary patch') { cur.binary = true; continue; }
  }
  flush();
  return out;
}

/** Files of the work tree git does not track (`git ls-files --others`): wholly new. */
export function addUntracked(change: ChangeSet, paths: readonly string[]): void {
  for (const path of paths) {
    if (path === '' || change.files.has(path)) continue;
    change.files.set(path, { path, added: [], removedAfter: [], whole: true });
  }
}
