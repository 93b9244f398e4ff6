import { beforeAll, describe, expect, it } from 'vitest';
import { DiffParseError, addUntracked, parseDiff, unquotePath } from '../../../src/gate/diff-parse.js';
import { placeOf, type DiffFilter } from '../../../src/gate/diff-match.js';
import { readChange } from '../../../src/git/change.js';
import { gitEnv } from '../../../src/git/run.js';
import { gitRepo, type GitRepo } from '../../helpers/git-repo.js';

const env = { PATH: process.env.PATH };

/**
 * A base commit on main and a branch `feat` that edits, renames, deletes, adds binary and oddly named
 * files: made once for the file (the tests only read it), removed after its tests.
 */
let made: GitRepo;
beforeAll(() => { made = makeChangedRepo(); });
const changedRepo = (): GitRepo => made;

function makeChangedRepo(): GitRepo {
  const repo = gitRepo();
  repo.write('my file.txt', 'a\nb\nc\nd\ne\n');
  repo.write('old.ts', '1\n2\n3\n');
  repo.write('tab\tname.ts', 'x\n');
  repo.write('bin.dat', Buffer.from([0, 1]));
  repo.write('gone.ts', 'z\n');
  repo.write('untouched.ts', 'u\n'.repeat(20));
  repo.write('q"uote.ts', 'q\n');
  repo.commit('base');
  repo.git('checkout', '-q', '-b', 'feat');
  repo.write('my file.txt', 'a\nB\nc\ne\nf\n');
  repo.git('mv', 'old.ts', 'new.ts');
  repo.write('new.ts', '1\n2\n3\n4\n');
  repo.write('tab\tname.ts', 'y\n');
  repo.write('bin.dat', Buffer.from([0, 2]));
  repo.git('rm', '-q', 'gone.ts');
  repo.write('sub/é.ts', 'é\n');
  repo.write('q"uote.ts', 'Q\n');
  repo.commit('change');
  return repo;
}

describe('parseDiff: git diff --unified=0 -M of a real change', () => {
  it('reads modified, renamed, binary, deleted, quoted and non-ASCII paths', async () => {
    const repo = changedRepo();
    const change = await readChange({ cwd: repo.dir, env, base: 'main', workTree: false });
    const set = parseDiff(change.diff);
    expect([...set.files.keys()].sort()).toEqual(['bin.dat', 'my file.txt', 'new.ts', 'q"uote.ts', 'sub/é.ts', 'tab\tname.ts']);
    const f = set.files.get('my file.txt')!;
    expect(f.added).toEqual([[2, 2], [5, 5]]);
    // `d` (old line 4) removed: after new line 3.
    expect(f.removedAfter).toEqual([3]);
    expect(set.files.get('new.ts')).toEqual({ path: 'new.ts', from: 'old.ts', added: [[4, 4]], removedAfter: [], whole: false });
    expect(set.files.get('bin.dat')!.whole).toBe(true);
    expect(set.files.get('sub/é.ts')!.added).toEqual([[1, 1]]);
    expect(set.files.get('tab\tname.ts')!.added).toEqual([[1, 1]]);
    expect([...set.gone].sort()).toEqual(['gone.ts', 'old.ts']);
    expect(change.tracked).toContain('untouched.ts');
    expect(change.tracked).not.toContain('gone.ts');
  });

  it('a rename without a content change follows the new path', async () => {
    const repo = gitRepo();
    repo.write('a dir/one.ts', 'same\ncontent\nhere\n');
    repo.commit('base');
    repo.git('mv', 'a dir/one.ts', 'a dir/two.ts');
    repo.commit('rename');
    const set = parseDiff((await readChange({ cwd: repo.dir, env, base: 'HEAD~1', workTree: false })).diff);
    expect([...set.files.values()]).toEqual([{ path: 'a dir/two.ts', from: 'a dir/one.ts', added: [], removedAfter: [], whole: false }]);
  });

  it('skips hunk bodies by their counts: a removed line that looks like a header is not one', () => {
    const text = [
      'diff --git a/x.ts b/x.ts', 'index 1..2 100644', '--- a/x.ts', '+++ b/x.ts',
      '@@ -1,2 +1,2 @@', '--- a/evil', '-diff --git a/y b/y', '++++ b/evil', '+@@ -1 +1 @@',
      '\\ No newline at end of file', '',
    ].join('\n');
    const set = parseDiff(text);
    expect([...set.files.keys()]).toEqual(['x.ts']);
    expect(set.files.get('x.ts')!.added).toEqual([[1, 2]]);
  });

  it('reads a mode-only change and a binary rename from the header', () => {
    const set = parseDiff([
      'diff --git a/run me.sh b/run me.sh', 'old mode 100644', 'new mode 100755',
      'diff --git a/x.png b/y.png', 'similarity index 90%', 'rename from x.png', 'rename to y.png', 'Binary files a/x.png and b/y.png differ', '',
    ].join('\n'));
    expect(set.files.get('run me.sh')).toEqual({ path: 'run me.sh', added: [], removedAfter: [], whole: false });
    expect(set.files.get('y.png')).toMatchObject({ from: 'x.png', whole: true });
    expect([...set.gone]).toEqual(['x.png']);
  });

  it('unquotes C-style paths and refuses broken ones', () => {
    expect(unquotePath('"a\\\\b\\"c\\303\\251\\t"').path).toBe('a\\b"cé\t');
    expect(unquotePath('plain path').path).toBe('plain path');
    expect(() => unquotePath('"open')).toThrow(DiffParseError);
    expect(() => parseDiff('garbage\n')).toThrow(DiffParseError);
  });

  it('the empty diff is no change at all', () => {
    expect(parseDiff('').files.size).toBe(0);
  });
});

describe('placeOf: is an issue in the change', () => {
  const change = parseDiff([
    'diff --git a/src/a.ts b/src/a.ts', '--- a/src/a.ts', '+++ b/src/a.ts',
    '@@ -10,0 +11,3 @@', '+x', '+y', '+z', '@@ -30 +32,0 @@', '-gone', '',
  ].join('\n'));
  addUntracked(change, ['new/untracked.ts']);
  const f: DiffFilter = { change, scope: 'lines', tracked: new Set(['src/a.ts', 'src/b.ts']) };
  const at = (file: unknown, startLine?: unknown, endLine?: unknown) => placeOf({ affectedFile: file, startLine, endLine }, f);

  it('lines: an issue meeting an added line is in the change; one beside it is not', () => {
    expect(at('src/a.ts', 11)).toBe('change');
    expect(at('src/a.ts', 13)).toBe('change');
    expect(at('src/a.ts', 8, 11)).toBe('change');
    expect(at('src/a.ts', 10)).toBe('elsewhere');
    expect(at('src/a.ts', 14)).toBe('elsewhere');
    expect(at('./src/a.ts', 12)).toBe('change');
    expect(at('src\\a.ts', 12)).toBe('change');
  });

  it('lines: an issue spanning a place where lines were only removed is in the change', () => {
    expect(at('src/a.ts', 30, 34)).toBe('change');
    expect(at('src/a.ts', 33, 34)).toBe('elsewhere');
    expect(at('src/a.ts', 32)).toBe('elsewhere');
  });

  it('an untouched file is elsewhere; untracked files count whole', () => {
    expect(at('src/b.ts', 1)).toBe('elsewhere');
    expect(at('new/untracked.ts', 999)).toBe('change');
  });

  it('fails closed: no file or no line counts (unlocated); a file the repository lacks counts (unknown)', () => {
    expect(at(undefined, 3)).toBe('unlocated');
    expect(at('', 3)).toBe('unlocated');
    expect(at('src/a.ts')).toBe('unlocated');
    expect(at('src/a.ts', 0)).toBe('unlocated');
    expect(at('src/b.ts', 'x')).toBe('unlocated');
    expect(at('repo/src/b.ts', 1)).toBe('unknown');
  });

  it('files: the file changed at all', () => {
    const files: DiffFilter = { ...f, scope: 'files' };
    expect(placeOf({ affectedFile: 'src/a.ts', startLine: 1 }, files)).toBe('change');
    expect(placeOf({ affectedFile: 'src/a.ts' }, files)).toBe('change');
    expect(placeOf({ affectedFile: 'src/b.ts', startLine: 12 }, files)).toBe('elsewhere');
    expect(placeOf({ startLine: 12 }, files)).toBe('unlocated');
  });
});

describe('git runs without the caller\'s GIT_* variables', () => {
  it('drops GIT_DIR and friends, adds no prompt and no locks', () => {
    const e = gitEnv({ PATH: '/bin', GIT_DIR: '/elsewhere', GIT_WORK_TREE: '/x', git_config_parameters: "'a.b=c'", GIT_EXTERNAL_DIFF: 'evil', GIT_DIFF_OPTS: '-u5', GIT_PAGER: 'rev', LANGUAGE: 'de', LC_ALL: 'de_DE.UTF-8' });
    expect(e).toEqual({ PATH: '/bin', GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0', LC_ALL: 'C' });
  });

  it("keeps the user's configuration where git reads it (safe.directory lives there)", () => {
    const config = { GIT_CONFIG_GLOBAL: '/h/cfg', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'safe.directory', GIT_CONFIG_VALUE_0: '/w' };
    expect(gitEnv({ PATH: '/bin', ...config })).toEqual({ PATH: '/bin', ...config, GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0', LC_ALL: 'C' });
  });

  it('reads the repository of the working directory even with GIT_DIR pointing elsewhere', async () => {
    const repo = changedRepo();
    const other = gitRepo();
    other.write('x', '1\n');
    other.commit('other');
    const change = await readChange({ cwd: repo.dir, env: { ...env, GIT_DIR: `${other.dir}/.git` }, base: 'main', workTree: false });
    expect(change.diff).toContain('my file.txt');
  });
});
