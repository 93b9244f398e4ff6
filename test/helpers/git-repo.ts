/**
 * Temporary git repositories for the `svc gate --diff` tests: `gitRepo()` makes one (in a tempDir,
 * removed after the test) with a fixed identity and no global or system configuration.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { tempDir } from './temp.js';
import { oncePerRun } from './once-per-run.js';

export interface GitRepo {
  dir: string;
  git(...args: string[]): string;
  write(path: string, text: string | Buffer): void;
  commit(message: string): string;
}

/** The environment the helper's git runs with: no user or system configuration. */
function env(home: string): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: home, GIT_CONFIG_NOSYSTEM: '1', LC_ALL: 'C' };
  out.GIT_AUTHOR_NAME = out.GIT_COMMITTER_NAME = 'svc test';
  out.GIT_AUTHOR_EMAIL = out.GIT_COMMITTER_EMAIL = 'test@example.invalid';
  // No `git maintenance run --auto` after each commit (a process each, for repositories of a few files).
  Object.assign(out, { GIT_CONFIG_COUNT: '2', GIT_CONFIG_KEY_0: 'maintenance.auto', GIT_CONFIG_VALUE_0: 'false', GIT_CONFIG_KEY_1: 'gc.auto', GIT_CONFIG_VALUE_1: '0' });
  return out;
}

export function openRepo(dir: string, home = dir): GitRepo {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, env: env(home), encoding: 'utf8' });
  return {
    dir,
    git,
    write(path, text) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    },
    commit(message) {
      git('add', '-A');
      git('commit', '-q', '--allow-empty', '-m', message);
      return git('rev-parse', 'HEAD').trim();
    },
  };
}

/** A new repository on branch main in a temp dir. */
export function gitRepo(): GitRepo {
  const dir = tempDir('svc-git-');
  const repo = openRepo(dir);
  repo.git('init', '-q', '-b', 'main');
  return repo;
}

/**
 * The checkout of a pull request in `dir` (made if needed): branch feature one commit past main
 * (a new src/feature.ts), origin/main as a full clone has it (fetch-depth: 0, GIT_DEPTH: "0").
 *
 * Made once per test run (once-per-run.ts: nine git processes, ~0.1 CPU-s) and copied into `dir`
 * for each caller, every copy the same repository (the same commits); outside such a run, made in
 * `dir`. `home`: the HOME its git runs with when it is made here.
 */
export async function pullRequestCheckout(dir: string, home: string): Promise<{ base: string; head: string }> {
  if (!process.env.SVC_TEST_SHARED) return makePullRequestCheckout(dir, home);
  const made = await (template ??= oncePerRun('pr-checkout', async (shared) => ({ dir: shared, ...makePullRequestCheckout(shared, shared) }), () => tempDir('svc-pr-checkout-')));
  mkdirSync(dir, { recursive: true });
  cpSync(made.dir, dir, { recursive: true });
  return { base: made.base, head: made.head };
}

let template: Promise<{ dir: string; base: string; head: string }> | undefined;

function makePullRequestCheckout(dir: string, home: string): { base: string; head: string } {
  mkdirSync(dir, { recursive: true });
  const git = openRepo(dir, home);
  git.git('init', '-q', '-b', 'main');
  git.write('README.md', 'base\n');
  const base = git.commit('base');
  git.git('update-ref', 'refs/remotes/origin/main', base);
  git.git('checkout', '-q', '-b', 'feature');
  git.write('src/feature.ts', 'export const feature = 1;\n');
  return { base, head: git.commit('feature') };
}
