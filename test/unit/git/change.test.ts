/**
 * What svc reads from git does not depend on the user's git: a configuration that changes `git diff`'s
 * output (set where users set it, ~/.gitconfig or the file GIT_CONFIG_GLOBAL names) gives the same
 * change as none, and a repository git refuses for its owner is exit 2 with git's own fix.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CliError } from '../../../src/core/errors.js';
import { EXIT } from '../../../src/core/exit-codes.js';
import { parseDiff } from '../../../src/gate/diff-parse.js';
import { readChange } from '../../../src/git/change.js';
import { gitRepo, type GitRepo } from '../../helpers/git-repo.js';
import { tempDir } from '../../helpers/temp.js';

const PATH = process.env.PATH!;

/**
 * Settings that each change what `git diff` prints when svc does not fix them (every one was seen
 * to change the output of the options svc used before), plus a pager and an external diff that
 * would print garbage.
 */
const HOSTILE = `[diff]
\tsubmodule = log
\tnoprefix = true
\tmnemonicPrefix = true
\trelative = true
\texternal = ${'/bin/echo'}
\trenames = false
\tinterHunkContext = 5
\tcontext = 7
\tignoreSubmodules = all
\tsuppressBlankEmpty = true
[color]
\tui = always
\tdiff = always
[core]
\tquotePath = false
\tpager = rev
\tabbrev = 5
`;

/**
 * main: a.txt (10 lines), a submodule (a gitlink, as a checkout without its submodules has it);
 * feat: lines 3 and 6 of a.txt changed (two hunks 2 lines apart), the submodule moved to another
 * commit, sub/é.txt added, old.txt renamed.
 */
let made: GitRepo;
beforeAll(() => {
  const repo = gitRepo();
  repo.write('a.txt', Array.from({ length: 10 }, (_, i) => `line ${i + 1}\n`).join(''));
  repo.write('old.txt', 'one\ntwo\nthree\n');
  const first = repo.commit('base');
  // An empty directory where the gitlink is: a submodule not checked out, which `git add -A` leaves be.
  mkdirSync(join(repo.dir, 'vendor/lib'), { recursive: true });
  repo.git('update-index', '--add', '--cacheinfo', `160000,${first},vendor/lib`);
  const second = repo.commit('submodule');
  repo.git('branch', 'main-tip');
  repo.git('checkout', '-q', '-b', 'feat');
  repo.write('a.txt', Array.from({ length: 10 }, (_, i) => (i === 2 || i === 5 ? `LINE ${i + 1}\n` : `line ${i + 1}\n`)).join(''));
  repo.git('update-index', '--cacheinfo', `160000,${second},vendor/lib`);
  repo.write('sub/é.txt', 'new\n');
  repo.git('mv', 'old.txt', 'new.txt');
  repo.commit('change');
  made = repo;
});

async function changeOf(env: Record<string, string>, cwd = made.dir) {
  const change = await readChange({ cwd, env, base: 'main-tip', workTree: false });
  const set = parseDiff(change.diff);
  return { files: Object.fromEntries([...set.files].map(([k, v]) => [k, v])), gone: [...set.gone].sort() };
}

describe("readChange: the user's git configuration changes nothing svc reads", () => {
  const expected = {
    files: {
      'a.txt': { path: 'a.txt', added: [[3, 3], [6, 6]], removedAfter: [], whole: false },
      'vendor/lib': { path: 'vendor/lib', added: [[1, 1]], removedAfter: [], whole: false },
      'sub/é.txt': { path: 'sub/é.txt', added: [[1, 1]], removedAfter: [], whole: false },
      'new.txt': { path: 'new.txt', from: 'old.txt', added: [], removedAfter: [], whole: false },
    },
    gone: ['old.txt'],
  };

  it('without any configuration: the change as the tests below expect it', async () => {
    expect(await changeOf({ PATH, HOME: tempDir('svc-home-') })).toEqual(expected);
  });

  it.each([
    ['~/.gitconfig', (file: string, home: string) => { writeFileSync(join(home, '.gitconfig'), file); return { HOME: home }; }],
    ['GIT_CONFIG_GLOBAL', (file: string, home: string) => { writeFileSync(join(home, 'user.cfg'), file); return { HOME: home, GIT_CONFIG_GLOBAL: join(home, 'user.cfg') }; }],
    ['GIT_CONFIG_COUNT/KEY/VALUE', (_file: string, home: string) => ({ HOME: home, GIT_CONFIG_COUNT: '3', GIT_CONFIG_KEY_0: 'diff.submodule', GIT_CONFIG_VALUE_0: 'log', GIT_CONFIG_KEY_1: 'diff.interHunkContext', GIT_CONFIG_VALUE_1: '5', GIT_CONFIG_KEY_2: 'diff.noprefix', GIT_CONFIG_VALUE_2: 'true' })],
  ])('a configuration that changes git diff, in %s: the same change, from the root and from a subdirectory', async (_where, place) => {
    const env = { PATH, ...place(HOSTILE, tempDir('svc-home-')) };
    expect(await changeOf(env)).toEqual(expected);
    // diff.relative would cut the paths to the subdirectory's; svc's are from the root.
    expect(await changeOf(env, join(made.dir, 'sub'))).toEqual(expected);
  });

  it('the configuration is really in effect for git itself (the test would prove nothing otherwise)', () => {
    const home = tempDir('svc-home-');
    writeFileSync(join(home, 'user.cfg'), HOSTILE);
    // The options svc gave git before it fixed the rest.
    const before = ['diff', '--unified=0', '-M', '--no-color', '--no-ext-diff', '--no-textconv', '--no-relative', '--src-prefix=a/', '--dst-prefix=b/', '--ignore-submodules=none'];
    const raw = execFileSync('git', [...before, 'main-tip', 'HEAD'], {
      cwd: made.dir, encoding: 'utf8', env: { PATH, HOME: home, GIT_CONFIG_GLOBAL: join(home, 'user.cfg'), GIT_CONFIG_NOSYSTEM: '1' },
    });
    // The submodule as a log line (which svc could not read), context between the two hunks (lines 4
    // and 5 counted as changed), the raw UTF-8 path.
    expect(raw).toMatch(/^Submodule vendor\/lib [0-9a-f]+\.\.\.?[0-9a-f]+/m);
    expect(raw).toContain('@@ -3,4 +3,4 @@');
    expect(raw).toContain('+++ b/sub/é.txt');
  });
});

/**
 * A repository git refuses for its owner: as root, one whose files belong to another uid (as a
 * container job's checkout made by the runner's user); as anyone else, real git told to assume
 * another owner (GIT_TEST_ASSUME_DIFFERENT_OWNER, git's own test switch, set by a wrapper on PATH
 * since svc passes no GIT_* variable on).
 */
const ROOT = process.getuid?.() === 0;
function foreignRepo(name: string, how: 'chown' | 'told' = ROOT ? 'chown' : 'told'): { dir: string; env: Record<string, string>; home: string } {
  const repo = gitRepo();
  repo.write('a.txt', '1\n');
  repo.commit('base');
  const dir = join(repo.dir, name);
  // The repository itself one level down, so that its path can hold a quote and a space.
  execFileSync('git', ['clone', '-q', repo.dir, dir], { env: { PATH, GIT_CONFIG_NOSYSTEM: '1', HOME: repo.dir } });
  const home = tempDir('svc-home-');
  if (how === 'chown') {
    chownRecursive(dir, 1234);
    return { dir, env: { PATH, HOME: home }, home };
  }
  const bin = tempDir('svc-bin-');
  const real = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  writeFileSync(join(bin, 'git'), `#!/bin/sh\nGIT_TEST_ASSUME_DIFFERENT_OWNER=1 exec '${real}' "$@"\n`);
  chmodSync(join(bin, 'git'), 0o755);
  return { dir, env: { PATH: `${bin}:${PATH}`, HOME: home }, home };
}

function chownRecursive(dir: string, uid: number): void {
  execFileSync('chown', ['-R', `${uid}:${uid}`, dir]);
  chownSync(dir, uid, uid);
}

describe('readChange: a repository git refuses for its owner ("dubious ownership")', () => {
  it.each(ROOT ? ['chown', 'told'] as const : ['told'] as const)("exit 2 naming safe.directory with git's own command, not 'not in a git repository' (%s)", async (how) => {
    const { dir, env } = foreignRepo("it's mine", how);
    // What git itself says there.
    let gitSays = '';
    try {
      execFileSync('git', ['-C', dir, 'rev-parse', '--show-toplevel'], { env: { ...env, LC_ALL: 'C' }, stdio: 'pipe' });
    } catch (err) {
      gitSays = String((err as { stderr: Buffer }).stderr);
    }
    expect(gitSays).toContain('dubious ownership');
    const fix = /^\s*(git config --global --add safe\.directory .+)$/m.exec(gitSays)![1];

    const err = await readChange({ cwd: dir, env, base: 'HEAD', workTree: false }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CliError);
    const e = err as CliError;
    expect(e.exitCode).toBe(EXIT.USAGE);
    expect(e.message).toContain('dubious ownership');
    expect(e.message).toContain(dir);
    expect(e.message).not.toContain('not in a git repository');
    expect(e.hint).toContain(fix);
    // git's command, run as it stands in a shell, makes the repository readable.
    const cfg = join(tempDir('svc-home-'), 'global.cfg');
    execFileSync('sh', ['-c', fix], { env: { PATH, GIT_CONFIG_GLOBAL: cfg } });
    const after = await readChange({ cwd: dir, env: { ...env, GIT_CONFIG_GLOBAL: cfg }, base: 'HEAD', workTree: false });
    expect(after.root).toBe(dir);
  });

  it('from a subdirectory of it, too', async () => {
    const { dir, env } = foreignRepo('checkout');
    const sub = join(dir, 'deep');
    mkdirSync(sub);
    const err = await readChange({ cwd: sub, env, base: 'HEAD', workTree: false }).catch((e: unknown) => e) as CliError;
    expect(err.exitCode).toBe(EXIT.USAGE);
    expect(err.hint).toContain(`git config --global --add safe.directory ${dir}`);
  });

  it('safe.directory set where the user sets it (GIT_CONFIG_GLOBAL, ~/.gitconfig, GIT_CONFIG_COUNT) is obeyed', async () => {
    const { dir, env, home } = foreignRepo('checkout');
    const cfg = join(home, 'user.cfg');
    writeFileSync(cfg, `[safe]\n\tdirectory = ${dir}\n`);
    expect((await readChange({ cwd: dir, env: { ...env, GIT_CONFIG_GLOBAL: cfg }, base: 'HEAD', workTree: false })).root).toBe(dir);
    expect((await readChange({ cwd: dir, env: { ...env, GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'safe.directory', GIT_CONFIG_VALUE_0: dir }, base: 'HEAD', workTree: false })).root).toBe(dir);
    writeFileSync(join(home, '.gitconfig'), `[safe]\n\tdirectory = ${dir}\n`);
    expect((await readChange({ cwd: dir, env, base: 'HEAD', workTree: false })).root).toBe(dir);
  });

  it('a directory that is no repository is still "not in a git repository"; another git failure is named as git says it', async () => {
    const dir = tempDir('svc-norepo-');
    const e1 = await readChange({ cwd: dir, env: { PATH, HOME: dir, GIT_CONFIG_NOSYSTEM: '1' }, base: 'HEAD', workTree: false }).catch((e: unknown) => e) as CliError;
    expect(e1.exitCode).toBe(EXIT.USAGE);
    expect(e1.message).toContain('is not in a git repository');
    // A bare repository is a repository: git's own words, not "not in a git repository".
    execFileSync('git', ['init', '-q', '--bare', join(dir, 'bare.git')], { env: { PATH, HOME: dir, GIT_CONFIG_NOSYSTEM: '1' } });
    const e2 = await readChange({ cwd: join(dir, 'bare.git'), env: { PATH, HOME: dir }, base: 'HEAD', workTree: false }).catch((e: unknown) => e) as CliError;
    expect(e2.exitCode).toBe(EXIT.USAGE);
    expect(e2.message).toBe('--diff: git rev-parse failed: fatal: this operation must be run in a work tree');
  });
});

describe('the change of the commit judged, where the CI checked out a merge commit', () => {
  /**
   * A pull request adds line 50 of app.txt on feat; main then adds 1,000 lines above it. The CI
   * checks out the merge commit (GitHub's refs/pull/N/merge), where the added line is line 1,050;
   * the head's scan reports it at line 50. The change read must be the head's.
   */
  function mergeCheckout(): { repo: GitRepo; head: string } {
    const repo = gitRepo();
    const lines = (n: number, from = 1) => Array.from({ length: n }, (_, i) => `line ${i + from}`);
    repo.write('app.txt', lines(60).join('\n') + '\n');
    repo.commit('base');
    repo.git('checkout', '-q', '-b', 'feat');
    const withNew = lines(60);
    withNew.splice(49, 0, 'vulnerable line');
    repo.write('app.txt', withNew.join('\n') + '\n');
    const head = repo.commit('pull request');
    repo.git('checkout', '-q', 'main');
    repo.write('app.txt', [...lines(1000, 1001), ...lines(60)].join('\n') + '\n');
    repo.commit('main moves on');
    repo.git('merge', '-q', '--no-edit', '--no-ff', 'feat');
    return { repo, head };
  }

  it('with the head given, the lines added are the head\'s (line 50), not the merge commit\'s (line 1,050)', async () => {
    const { repo, head } = mergeCheckout();
    const env = { PATH, HOME: repo.dir, GIT_CONFIG_NOSYSTEM: '1' };
    const judged = await readChange({ cwd: repo.dir, env, base: 'main~1', workTree: false, head });
    expect(judged.head).toBe(head);
    expect(parseDiff(judged.diff).files.get('app.txt')!.added).toEqual([[50, 50]]);
    // HEAD (the merge commit) against the same base: the line is at 1,050, so the head's finding at
    // line 50 was judged outside the change (a PASS).
    const merged = await readChange({ cwd: repo.dir, env, base: 'main~1', workTree: false });
    expect(merged.head).toBeUndefined();
    expect(parseDiff(merged.diff).files.get('app.txt')!.added).toEqual([[1050, 1050]]);
  });

  it('a head not in the clone: exit 2 naming it and the checkout that fixes it', async () => {
    const { repo } = mergeCheckout();
    const env = { PATH, HOME: repo.dir, GIT_CONFIG_NOSYSTEM: '1' };
    const err = await readChange({ cwd: repo.dir, env, base: 'main~1', workTree: false, head: 'abcdef1234567' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CliError);
    expect((err as CliError).exitCode).toBe(EXIT.USAGE);
    expect((err as CliError).message).toContain('the commit the gate judges (abcdef1234567, --commit) is not in this clone');
    expect((err as CliError).hint).toContain('git fetch origin abcdef1234567');
  });
});
