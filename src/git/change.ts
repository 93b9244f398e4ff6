/**
 * What `svc gate --diff BASE` reads from git: the repository root, the merge base of BASE and HEAD,
 * `git diff --unified=0 -M <merge-base>..HEAD` (or `<merge-base>` against the work tree), the files
 * at HEAD (or in the work tree and index) and, with the work tree, the untracked files.
 *
 * Fail closed: not a repository, a base git cannot resolve (a missing ref, a shallow clone that
 * stops before it), no merge base, or git failing in any way is a CliError with exit 2 and the fix.
 * Never "no changes".
 */
import { CliError } from '../core/errors.js';
import { EXIT } from '../core/exit-codes.js';
import type { Env } from '../core/host.js';
import { runGit, type GitResult } from './run.js';

interface GitChange {
  /** The repository root (`git rev-parse --show-toplevel`). */
  root: string;
  base: string;
  /** The commit the diff starts from. */
  mergeBase: string;
  /** The commit it ends at, when not HEAD (readChange's `head`). */
  head?: string;
  /**
   * The commit it ends at (HEAD with the work tree) is the merge base: already in the base, so no commit
   * of the change is in it (it is empty, or with the work tree only edits not committed).
   */
  contained: boolean;
  /** The diff, as git printed it. */
  diff: string;
  /** Files at HEAD, plus the index's with the work tree. */
  tracked: string[];
  /** With the work tree: files git does not track and does not ignore. */
  untracked: string[];
  shallow: boolean;
}

/**
 * The diff options, each fixing what a setting of the user's could change in what src/gate/diff.ts
 * reads: no context and no context between hunks (diff.context, diff.interHunkContext would widen the
 * lines counted as changed), renames as renames (diff.renames), no colour (color.ui/color.diff=always),
 * no external diff or textconv (diff.external, diff.<driver>.textconv), the a/ b/ prefixes
 * (diff.noprefix, diff.mnemonicPrefix, diff.srcPrefix), paths from the root (diff.relative), a
 * submodule as its two commits (diff.submodule=log|diff prints a log or a nested diff instead), every
 * submodule (diff.ignoreSubmodules, submodule.<name>.ignore), and git's default algorithm and heuristic
 * (diff.algorithm, diff.indentHeuristic), so a change is the same lines on every machine.
 * Paths in quoted form (core.quotePath) and no pager are fixed for every command (./run.ts).
 */
const DIFF_ARGS = [
  'diff', '--unified=0', '--inter-hunk-context=0', '-M', '--no-color', '--no-ext-diff', '--no-textconv', '--no-relative',
  '--src-prefix=a/', '--dst-prefix=b/', '--submodule=short', '--ignore-submodules=none', '--diff-algorithm=myers', '--indent-heuristic',
];

function fail(message: string, hint?: string): never {
  throw new CliError(message, EXIT.USAGE, hint);
}

function gitError(r: GitResult, what: string): never {
  if (r.failure === 'missing') fail(`--diff needs git, and git was not found on PATH`, 'install git in the CI image, or drop --diff');
  if (r.failure === 'timeout') fail(`--diff: git ${what} did not finish in time`, 'try again; a very large repository may need a local run');
  if (r.failure === 'too-large') fail(`--diff: the output of git ${what} is too large to read`, 'gate on a smaller change, or drop --diff');
  const first = r.stderr.split('\n').map((l) => l.trim()).find((l) => l !== '') ?? `exit ${r.code ?? '?'}`;
  fail(`--diff: git ${what} failed: ${first}`);
}

/**
 * git refuses a repository that belongs to another user (CVE-2022-24765; a container job whose
 * checkout the runner's user made): "fatal: detected dubious ownership in repository at '<path>'",
 * then the command that trusts it, `git config --global --add safe.directory <path>` (the path
 * shell-quoted by recent gits, 2.39.5 here; svc quotes it when git's line is not there). svc names
 * git's own fix; it never trusts the repository itself.
 */
function refused(stderr: string): void {
  const at = /dubious ownership in repository at '(.*)'$/m.exec(stderr);
  if (!at) return;
  const path = at[1];
  const fix = /^\s*(git config --global --add safe\.directory .+?)\s*$/m.exec(stderr)?.[1]
    ?? `git config --global --add safe.directory ${shellQuote(path)}`;
  fail(
    `--diff: git refuses to read the repository at ${path}: it belongs to another user than the one running svc (git's "dubious ownership" check)`,
    `if you trust it, mark it safe as git says: ${fix} (in a CI container job: a step before svc)`,
  );
}

function shellQuote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

function fetchHint(base: string, shallow: boolean): string {
  const ref = base.replace(/^origin\//, '');
  const fetch = /^[0-9a-f]{7,64}$/i.test(base) ? `git fetch origin ${base}` : `git fetch origin ${ref}`;
  return shallow
    ? `the clone is shallow: fetch the whole history (fetch-depth: 0 in the checkout step, GIT_DEPTH: 0, clone depth: full) or run '${fetch}' and 'git fetch --unshallow' first`
    : `fetch it first: '${fetch}' (or fetch-depth: 0 in the checkout step)`;
}

/**
 * `head`: the commit the change ends at, when it is not HEAD: the commit the gate judges (--commit),
 * a pull request's head, where the CI checked out the merge commit it made (refs/pull/N/merge, a
 * merged results pipeline). The issues of the head's scan are at the head's line
 * numbers; the merge commit's diff puts the change at others when the base moved since (a finding
 * at line 50 of the head, line 1,050 of the merge: judged outside the change, a PASS).
 */
export async function readChange(o: { cwd: string; env: Env; base: string; workTree: boolean; head?: string; signal?: AbortSignal }): Promise<GitChange> {
  const git = (args: string[], cwd = o.cwd) => runGit(args, { cwd, env: o.env, signal: o.signal });
  // The root and whether the clone is shallow, in one git process: `root\ntrue|false\n`.
  const top = await git(['rev-parse', '--show-toplevel', '--is-shallow-repository']);
  if (!top.ok) {
    if (top.failure) gitError(top, 'rev-parse');
    refused(top.stderr);
    if (!/not a git repository/i.test(top.stderr)) gitError(top, 'rev-parse');
    fail(`--diff: ${o.cwd} is not in a git repository`, 'run svc gate in the checkout of the repository, or drop --diff');
  }
  const lines = top.stdout.replace(/\n$/, '');
  const cut = lines.lastIndexOf('\n');
  const root = cut < 0 ? lines : lines.slice(0, cut);
  const shallow = cut >= 0 && lines.slice(cut + 1).trim() === 'true';
  const base = o.base.trim();
  if (base === '' || base.startsWith('-')) fail(`--diff expects a git revision (a branch, a tag or a commit), got '${o.base}'`);
  const head = await git(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}']);
  if (!head.ok) {
    if (head.failure) gitError(head, 'rev-parse HEAD');
    fail('--diff: the repository has no commit at HEAD', 'commit the change first');
  }
  let end = 'HEAD';
  if (o.head !== undefined && !o.workTree) {
    const judged = await git(['rev-parse', '--verify', '--quiet', '--end-of-options', `${o.head}^{commit}`]);
    if (!judged.ok) {
      if (judged.failure) gitError(judged, 'rev-parse');
      fail(`--diff: the commit the gate judges (${o.head}, --commit) is not in this clone${shallow ? ' (a shallow clone)' : ''}, so its change cannot be read`,
        `fetch it (git fetch origin ${o.head}), or check out with the whole history (fetch-depth: 0), which holds a merge commit's parents`);
    }
    end = judged.stdout.trim();
  }
  const resolved = await git(['rev-parse', '--verify', '--quiet', '--end-of-options', `${base}^{commit}`]);
  if (!resolved.ok) {
    if (resolved.failure) gitError(resolved, 'rev-parse');
    fail(`--diff: git cannot resolve the base '${base}' in this clone${shallow ? ' (a shallow clone)' : ''}`, fetchHint(base, shallow));
  }
  const baseSha = resolved.stdout.trim();
  const mb = await git(['merge-base', baseSha, end]);
  if (!mb.ok) {
    if (mb.failure) gitError(mb, 'merge-base');
    fail(`--diff: '${base}' and ${end === 'HEAD' ? 'HEAD' : end.slice(0, 12)} have no common commit in this clone${shallow ? ' (a shallow clone: the history stops before it)' : ''}`, fetchHint(base, true));
  }
  const mergeBase = mb.stdout.trim().split('\n')[0];
  const range = o.workTree ? [mergeBase] : [mergeBase, end];
  const diff = await git([...DIFF_ARGS, ...range, '--'], root);
  if (!diff.ok) gitError(diff, 'diff');
  const tree = await git(['ls-tree', '-r', '-z', '--name-only', '--full-tree', end], root);
  if (!tree.ok) gitError(tree, 'ls-tree');
  const tracked = tree.stdout.split('\0').filter((p) => p !== '');
  let untracked: string[] = [];
  if (o.workTree) {
    const index = await git(['ls-files', '-z', '--full-name'], root);
    if (!index.ok) gitError(index, 'ls-files');
    for (const p of index.stdout.split('\0')) if (p !== '') tracked.push(p); // not push(...): a repository of 150,000 files would overflow the stack
    const others = await git(['ls-files', '-z', '--full-name', '--others', '--exclude-standard'], root);
    if (!others.ok) gitError(others, 'ls-files --others');
    untracked = others.stdout.split('\0').filter((p) => p !== '');
  }
  const contained = mergeBase === (end === 'HEAD' ? head.stdout.trim() : end);
  return { root, base, mergeBase, ...(end !== 'HEAD' ? { head: end } : {}), contained, diff: diff.stdout, tracked, untracked, shallow };
}
