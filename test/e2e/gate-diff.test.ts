/**
 * `svc gate --diff` in a real temporary git repository: a base commit on main and a change on a
 * branch, gated against the scripted service.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { useFakeServices, type FakeService, type Issue } from '../helpers/fake-service.js';
import { runCli } from '../helpers/host.js';
import { gitRepo, openRepo, type GitRepo } from '../helpers/git-repo.js';
import { tempDir } from '../helpers/temp.js';

// The scripted service on a MockAgent: git and the diff are real, the service needs no socket.
const fake = useFakeServices({ mock: true });

const PATH = process.env.PATH!;

function issue(id: string, file: string | undefined, startLine?: number, extra: Partial<Issue> = {}): Issue {
  const out: Issue = { id, status: 'open', score: 95, generatedTitle: `Issue ${id}`, vulnClass: 'SQL Injection', repositoryId: 'repo-1', codeScan: { id: 'scan-1' }, ...extra };
  if (file !== undefined) out.affectedFile = file;
  if (startLine !== undefined) out.startLine = startLine;
  return out;
}

/**
 * main: src/app.ts (10 lines), src/lib/util.ts, docs/read me.md; feat changes app.ts line 5, adds
 * line 11, renames util.ts. Made with git once per file; each test gets its own copy of it.
 */
let template: string;
beforeAll(() => { template = makeProject().dir; });
function project(): GitRepo {
  const dir = tempDir('svc-git-');
  cpSync(template, dir, { recursive: true });
  return openRepo(dir);
}

function makeProject(): GitRepo {
  const repo = gitRepo();
  repo.write('src/app.ts', Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join('\n') + '\n');
  repo.write('src/lib/util.ts', 'export const a = 1;\nexport const b = 2;\nexport const c = 3;\n');
  repo.write('docs/read me.md', '# doc\n');
  repo.commit('base');
  repo.git('checkout', '-q', '-b', 'feat');
  repo.write('src/app.ts', Array.from({ length: 11 }, (_, i) => (i === 4 ? 'line 5 changed' : `line ${i + 1}`)).join('\n') + '\n');
  repo.git('mv', 'src/lib/util.ts', 'src/lib/helpers.ts');
  repo.write('src/lib/helpers.ts', 'export const a = 1;\nexport const b = 22;\nexport const c = 3;\n');
  repo.write('docs/read me.md', '# doc\nmore\n');
  repo.commit('change');
  return repo;
}

const ISSUES = (): Issue[] => [
  issue('on-changed', 'src/app.ts', 5),
  issue('on-added', 'src/app.ts', 11),
  issue('untouched', 'src/app.ts', 2),
  issue('renamed-changed', 'src/lib/helpers.ts', 2),
  issue('renamed-untouched', 'src/lib/helpers.ts', 3),
  issue('spaces', 'docs/read me.md', 2),
  issue('no-lines', 'src/app.ts'),
  issue('no-file', undefined, 3),
];

function gate(s: FakeService, cwd: string, args: string[], env: Record<string, string> = {}) {
  return runCli(['gate', '--fail-on', 'high', ...args], { env: { ...s.env, PATH, ...env }, cwd, dispatcher: s.dispatcher });
}

describe('svc gate --diff: a base commit and a change', () => {
  it('counts issues on changed lines and issues it cannot place; not those on untouched lines', async () => {
    const repo = project();
    const s = await fake(ISSUES());
    const r = await gate(s, repo.dir, ['--diff', 'main', '-o', 'json']);
    expect(r.code, r.stderr).toBe(1);
    const v = JSON.parse(r.stdout);
    expect(v.issues.map((i: Issue) => i.id).sort()).toEqual(['no-file', 'no-lines', 'on-added', 'on-changed', 'renamed-changed', 'spaces']);
    expect(v.elsewhere.map((i: Issue) => i.id).sort()).toEqual(['renamed-untouched', 'untouched']);
    expect(v.diff).toMatchObject({ base: 'main', scope: 'lines', workTree: false, files: 3, inChange: 4, elsewhereCount: 2, unlocated: 2, unknownFile: 0 });
    expect(v.counts.total).toBe(6);
    expect(r.stderr).toContain('svc gate: --diff main: 3 files changed since');
  });

  it('the summary says what is in the change, what is elsewhere and what counted because it could not be placed', async () => {
    const repo = project();
    const s = await fake(ISSUES());
    const r = await gate(s, repo.dir, ['--diff', 'main']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/4 in this change, 2 elsewhere \(not counted; --diff main, merge base [0-9a-f]{12}, 3 files changed, by lines\)\./);
    expect(r.stdout).toContain('2 issues have no file or line and counted (fail closed).');
    expect(r.stdout).toContain('6 open issues counted; 2 more in scope not counted (below).');
  });

  it('passes when every breaking issue is on untouched lines', async () => {
    const repo = project();
    const s = await fake([issue('untouched', 'src/app.ts', 2), issue('old', 'src/lib/helpers.ts', 1)]);
    const r = await gate(s, repo.dir, ['--diff', 'main']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('0 in this change, 2 elsewhere');
    // Without --diff the same issues fail the gate.
    expect((await gate(s, repo.dir, [])).code).toBe(1);
  });

  it('--diff-scope files: an issue anywhere in a changed file counts', async () => {
    const repo = project();
    const s = await fake([issue('untouched', 'src/app.ts', 2), issue('other', 'src/main.ts', 1)]);
    const r = await gate(s, repo.dir, ['--diff', 'main', '--diff-scope', 'files', '-o', 'json']);
    const v = JSON.parse(r.stdout);
    expect(v.issues.map((i: Issue) => i.id)).toEqual(['untouched', 'other']);
    // src/main.ts is not in the repository: counted, fail closed.
    expect(v.diff).toMatchObject({ inChange: 1, unknownFile: 1, elsewhereCount: 0 });
    expect((await gate(s, repo.dir, ['--diff', 'main', '--diff-scope', 'bytes'])).stderr).toContain("--diff-scope expects lines or files, got 'bytes'");
  });

  it('from a subdirectory, on a detached HEAD: paths stay relative to the repository root', async () => {
    const repo = project();
    repo.git('checkout', '-q', '--detach', 'feat');
    const s = await fake([issue('on-changed', 'src/app.ts', 5), issue('untouched', 'src/app.ts', 2)]);
    const r = await gate(s, join(repo.dir, 'src', 'lib'), ['--diff', 'main', '-o', 'json']);
    expect(r.code, r.stderr).toBe(1);
    const v = JSON.parse(r.stdout);
    expect(v.issues.map((i: Issue) => i.id)).toEqual(['on-changed']);
    expect(v.elsewhere.map((i: Issue) => i.id)).toEqual(['untouched']);
  });

  it('--diff-work-tree adds uncommitted edits and untracked files', async () => {
    const repo = project();
    repo.write('src/app.ts', readFileSync(join(repo.dir, 'src/app.ts'), 'utf8').replace('line 2\n', 'line 2 edited\n'));
    repo.write('src/brand-new.ts', 'x\n');
    const s = await fake([issue('edited', 'src/app.ts', 2), issue('untracked', 'src/brand-new.ts', 1), issue('untouched', 'src/app.ts', 3)]);
    const committed = JSON.parse((await gate(s, repo.dir, ['--diff', 'main', '-o', 'json'])).stdout);
    expect(committed.issues.map((i: Issue) => i.id)).toEqual(['untracked']);
    const withTree = JSON.parse((await gate(s, repo.dir, ['--diff', 'main', '--diff-work-tree', '-o', 'json'])).stdout);
    expect(withTree.issues.map((i: Issue) => i.id)).toEqual(['edited', 'untracked']);
    expect(withTree.elsewhere.map((i: Issue) => i.id)).toEqual(['untouched']);
  });

  it('combines with --baseline: an issue in the change and in the baseline does not count', async () => {
    const repo = project();
    const dir = tempDir();
    const baseline = join(dir, 'base.json');
    const s = await fake([issue('on-changed', 'src/app.ts', 5), issue('on-added', 'src/app.ts', 11)]);
    s.setIssues([issue('on-changed', 'src/app.ts', 5)]);
    expect((await gate(s, repo.dir, ['--json-report', baseline])).code).toBe(1);
    s.setIssues([issue('on-changed', 'src/app.ts', 5), issue('on-added', 'src/app.ts', 11), issue('untouched', 'src/app.ts', 2)]);
    const v = JSON.parse((await gate(s, repo.dir, ['--diff', 'main', '--baseline', baseline, '-o', 'json'])).stdout);
    expect(v.issues.map((i: Issue) => i.id)).toEqual(['on-added']);
    expect(v.unchanged.map((i: Issue) => i.id)).toEqual(['on-changed']);
    expect(v.elsewhere.map((i: Issue) => i.id)).toEqual(['untouched']);
  });

  it('SARIF leaves the issues elsewhere out', async () => {
    const repo = project();
    const dir = tempDir();
    const s = await fake([issue('on-changed', 'src/app.ts', 5), issue('untouched', 'src/app.ts', 2)]);
    await gate(s, repo.dir, ['--diff', 'main', '--sarif', join(dir, 'out.sarif')]);
    const sarif = JSON.parse(readFileSync(join(dir, 'out.sarif'), 'utf8'));
    expect(sarif.runs[0].results.map((r: { properties?: { id?: string } }) => r.properties?.id ?? '')).toHaveLength(1);
    expect(JSON.stringify(sarif)).not.toContain('untouched');
  });
});

describe('svc gate --diff fails closed', () => {
  it('a shallow clone without the base: exit 2 with the fix, nothing sent', async () => {
    const origin = project();
    const dir = tempDir();
    openRepo(dir).git('clone', '-q', '--depth', '1', '--branch', 'feat', `file://${origin.dir}`, 'clone');
    const s = await fake(ISSUES());
    const r = await gate(s, join(dir, 'clone'), ['--diff', 'origin/main']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--diff: git cannot resolve the base 'origin/main' in this clone (a shallow clone)");
    expect(r.stderr).toContain('fetch-depth: 0');
    expect(r.stderr).toContain("git fetch origin main");
    expect(s.searches()).toHaveLength(0);
  });

  it('a base fetched shallow too (no common commit): exit 2, never "no changes"', async () => {
    const origin = project();
    origin.git('checkout', '-q', 'main');
    origin.write('src/later.ts', 'later\n');
    origin.commit('main moves on');
    const dir = tempDir();
    const clone = openRepo(dir);
    clone.git('clone', '-q', '--depth', '1', '--branch', 'feat', `file://${origin.dir}`, 'clone');
    const c = openRepo(join(dir, 'clone'), dir);
    c.git('fetch', '-q', '--depth', '1', 'origin', 'main:refs/remotes/origin/main');
    const s = await fake(ISSUES());
    const r = await gate(s, c.dir, ['--diff', 'origin/main']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--diff: 'origin/main' and HEAD have no common commit in this clone (a shallow clone");
    expect(r.stderr).toContain('fetch-depth: 0');
  });

  it('a missing ref: exit 2 naming it', async () => {
    const repo = project();
    const s = await fake(ISSUES());
    const r = await gate(s, repo.dir, ['--diff', 'origin/nope']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("git cannot resolve the base 'origin/nope'");
    expect(r.stderr).toContain('git fetch origin nope');
  });

  it('not a git repository: exit 2', async () => {
    const s = await fake(ISSUES());
    const r = await gate(s, tempDir(), ['--diff', 'main']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--diff: .* is not in a git repository/);
    expect(s.searches()).toHaveLength(0);
  });

  it("a user's git configuration that changes git diff's output (diff.submodule = log, as Pro Git advises) changes nothing", async () => {
    const repo = project();
    // A submodule (its commit, not checked out) that the change moves.
    const sha = repo.git('rev-parse', 'main').trim();
    repo.git('update-index', '--add', '--cacheinfo', `160000,${sha},vendor/lib`);
    repo.git('commit', '-q', '-m', 'submodule');
    const home = tempDir('svc-home-');
    writeFileSync(join(home, '.gitconfig'), '[diff]\n\tsubmodule = log\n\tinterHunkContext = 10\n\tnoprefix = true\n[color]\n\tui = always\n');
    const s = await fake(ISSUES());
    const r = await gate(s, repo.dir, ['--diff', 'main', '-o', 'json'], { HOME: home });
    expect(r.code, r.stderr).toBe(1);
    const v = JSON.parse(r.stdout);
    expect(v.issues.map((i: Issue) => i.id).sort()).toEqual(['no-file', 'no-lines', 'on-added', 'on-changed', 'renamed-changed', 'spaces']);
    expect(v.diff).toMatchObject({ files: 4, elsewhereCount: 2 });
  });

  it('a checkout git refuses for its owner (a container job): exit 2 with git\'s safe.directory fix', async () => {
    const repo = project();
    // git's own switch for "another user owns this" (svc passes no GIT_* on, so a wrapper sets it).
    const bin = tempDir('svc-bin-');
    const real = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
    writeFileSync(join(bin, 'git'), `#!/bin/sh\nGIT_TEST_ASSUME_DIFFERENT_OWNER=1 exec '${real}' "$@"\n`, { mode: 0o755 });
    const s = await fake(ISSUES());
    const r = await gate(s, repo.dir, ['--diff', 'main'], { PATH: `${bin}:${PATH}`, HOME: tempDir('svc-home-') });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`git refuses to read the repository at ${repo.dir}`);
    expect(r.stderr).toContain(`git config --global --add safe.directory ${repo.dir}`);
    expect(r.stderr).not.toContain('not in a git repository');
    expect(s.searches()).toHaveLength(0);
  });

  it('--diff-scope or --diff-work-tree without --diff: exit 2', async () => {
    const s = await fake([]);
    expect((await gate(s, tempDir(), ['--diff-scope', 'files'])).code).toBe(2);
    expect((await gate(s, tempDir(), ['--diff-work-tree'])).code).toBe(2);
  });
});

describe('svc gate --diff auto: the base from the CI', () => {
  /**
   * A clone whose origin has main and feat, checked out on feat (as a CI checks out a pull request):
   * made once for these tests, which only read it (a clone is several git processes).
   */
  let clone: GitRepo;
  beforeAll(() => {
    const origin = project();
    const dir = tempDir();
    openRepo(dir).git('clone', '-q', '--branch', 'feat', `file://${origin.dir}`, 'clone');
    clone = openRepo(join(dir, 'clone'), dir);
  });
  const ciClone = (): GitRepo => clone;

  const BASES: Array<[string, (repo: GitRepo) => Record<string, string>]> = [
    ["GitHub Actions", () => ({ GITHUB_ACTIONS: 'true', GITHUB_BASE_REF: 'main' })],
    ["GitLab CI/CD", (repo) => ({ GITLAB_CI: 'true', CI_MERGE_REQUEST_DIFF_BASE_SHA: repo.git('rev-parse', 'origin/main').trim() })],
    ["Bitbucket Pipelines", () => ({ BITBUCKET_BUILD_NUMBER: '7', BITBUCKET_PR_DESTINATION_BRANCH: 'main' })],
  ];
  for (const [name, vars] of BASES) {
    it(`${name}: the pull request's base`, async () => {
      const repo = ciClone();
      const s = await fake([issue('on-changed', 'src/app.ts', 5), issue('untouched', 'src/app.ts', 2)]);
      const r = await gate(s, repo.dir, ['--diff', 'auto', '-o', 'json'], vars(repo));
      expect(r.code, r.stderr).toBe(1);
      const v = JSON.parse(r.stdout);
      expect(v.issues.map((i: Issue) => i.id)).toEqual(['on-changed']);
      expect(v.elsewhere.map((i: Issue) => i.id)).toEqual(['untouched']);
    });
  }

  it('a CI build of no pull request: every issue counts, and a note says so', async () => {
    const repo = ciClone();
    const s = await fake([issue('untouched', 'src/app.ts', 2)]);
    const r = await gate(s, repo.dir, ['--diff', 'auto'], { GITHUB_ACTIONS: 'true', GITHUB_BASE_REF: '' });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("--diff auto: GitHub Actions builds no pull request (GITHUB_BASE_REF is not set on GitHub Actions): every issue counts");
  });

  it('outside a CI: exit 2, give the base', async () => {
    const repo = ciClone();
    const s = await fake([]);
    const r = await gate(s, repo.dir, ['--diff', 'auto']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('give the base, e.g. --diff origin/main');
  });

  it('a pull request build that checked out its base (pull_request_target\'s default): exit 2 naming the checkout, not an empty change that passes (it passed with exit 0)', async () => {
    const origin = project();
    const dir = tempDir();
    openRepo(dir).git('clone', '-q', '--branch', 'main', `file://${origin.dir}`, 'base');
    const repo = openRepo(join(dir, 'base'), dir);
    const s = await fake([issue('on-changed', 'src/app.ts', 5)]);
    const env = { GITHUB_ACTIONS: 'true', GITHUB_EVENT_NAME: 'pull_request_target', GITHUB_BASE_REF: 'main', GITHUB_HEAD_REF: 'feat', GITHUB_REF: 'refs/heads/main' };
    const r = await gate(s, repo.dir, ['--diff', 'auto'], env);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout).not.toContain('PASSED');
    expect(r.stderr).toContain("is already in the pull request's base origin/main, so this GitHub Actions checkout is not the pull request's code");
    expect(r.stderr).toContain("check out the pull request's head commit");
    expect(r.stderr).toContain('add --commit auto');
    // With the work tree too: its edits are not the pull request's commits (it passed with exit 0, '0 files changed').
    const wt = await gate(s, repo.dir, ['--diff', 'auto', '--diff-work-tree'], env);
    expect(wt.code, wt.stderr).toBe(2);
    expect(wt.stdout).not.toContain('PASSED');
    expect(wt.stderr).toContain("its change would hold only the work tree's edits, none of its commits: no issue of the pull request would count");
    expect(wt.stderr).toContain('drop --diff-work-tree and add --commit auto');
  });
});

describe('svc gate --diff: a change that edits the policy file', () => {
  it('says so: its ignore rules apply before review', async () => {
    const repo = project();
    repo.git('checkout', '-q', 'feat');
    repo.write('.svc-policy.yml', 'version: 1\nignore:\n  - path: "src/**"\n    reason: not ours\n    expires: 2099-12-31\n');
    repo.commit('waive');
    const s = await fake(ISSUES());
    const r = await gate(s, repo.dir, ['--diff', 'main']);
    expect(r.stderr).toContain('svc gate: this change edits the policy file .svc-policy.yml: its ignore rules apply to this run as the change writes them, before review');
    // A change that leaves the policy file alone: nothing said.
    const other = project();
    other.git('checkout', '-q', 'main');
    other.write('.svc-policy.yml', 'version: 1\n');
    other.commit('policy on main');
    other.git('checkout', '-q', 'feat');
    other.git('rebase', '-q', 'main');
    const quiet = await gate(s, other.dir, ['--diff', 'main']);
    expect(quiet.stderr).not.toContain('edits the policy file');
  });
});
