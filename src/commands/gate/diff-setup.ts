/**
 * `--diff BASE|auto`, `--diff-scope`, `--diff-work-tree`: read the change from git before anything is
 * sent (src/git/change.ts; every failure there is exit 2 with the fix), parse it (src/gate/diff-parse.ts) and hand
 * the sieve its filter (src/gate/diff-match.ts).
 *
 * `auto` takes the base from the pull request the CI builds (src/ci/pull-request.ts). In a CI job
 * that builds no pull request (a push, a schedule) there is no change to narrow to: every issue
 * counts, and a note says so. Outside a CI, `auto` is exit 2 (give the base).
 */
import { relative, resolve, sep } from 'node:path';
import type { Context } from '../../context.js';
import { UsageError } from '../../core/errors.js';
import { pullRequestOf } from '../../ci/pull-request.js';
import { detectCi } from '../../ci/detect.js';
import { readChange } from '../../git/change.js';
import { DiffParseError, addUntracked, parseDiff } from '../../gate/diff-parse.js';
import type { DiffFilter } from '../../gate/diff-match.js';
import type { DiffAbout } from '../../gate/sieve.js';
import type { GateOptions } from './options.js';

type DiffOpts = Pick<GateOptions, 'diff' | 'diffScope' | 'diffWorkTree'>;

/** `commit`: the commit the gate judges (--commit): the change ends there, not at HEAD (git/change.ts). */
export async function diffSetup(ctx: Context, opts: DiffOpts, commit?: string, policyFile?: string): Promise<(DiffFilter & { about: DiffAbout }) | undefined> {
  if (opts.diff === undefined) return undefined;
  const scope = opts.diffScope;
  let base = opts.diff.trim();
  let pr: ReturnType<typeof pullRequestOf>;
  if (base === 'auto') {
    pr = pullRequestOf(detectCi(ctx.env, { disabled: ctx.globals.ci === false }), ctx.env);
    if (!pr) throw new UsageError('--diff auto takes the base from a pull request build, and this is not a CI job svc knows', 'give the base, e.g. --diff origin/main');
    if (pr.base === undefined) {
      ctx.note(`svc gate: --diff auto: ${pr.name} builds no ${pr.change} (${pr.noBase}): every issue counts`);
      return undefined;
    }
    base = pr.base;
  }
  const change = await readChange({ cwd: ctx.cwd, env: ctx.env, base, workTree: opts.diffWorkTree === true, ...(commit !== undefined ? { head: commit } : {}), signal: ctx.signal });
  // A pull request build whose change ends at a commit the base already holds has checked out the
  // base, not the pull request (host A's event for the base repository's workflow does by default):
  // its change would be empty, every issue "elsewhere", and the gate would pass on nothing. With
  // --diff-work-tree the same: the work tree's edits are not the pull request's commits.
  if (pr && change.contained) {
    const end = change.head !== undefined ? `the commit the gate judges (${change.head.slice(0, 12)}, --commit)` : `HEAD (${change.mergeBase.slice(0, 12)})`;
    throw new UsageError(
      `--diff auto: ${end} is already in the ${pr.change}'s base ${base}, so this ${pr.name} checkout is not the ${pr.change}'s code (a job run for the base branch checks out the base) and its change would ${opts.diffWorkTree ? 'hold only the work tree\'s edits, none of its commits' : 'be empty'}: no issue of the ${pr.change} would count`,
      opts.diffWorkTree
        ? `check out the ${pr.change}'s head commit (--diff-work-tree reads the change up to HEAD), or drop --diff-work-tree and add --commit auto`
        : `check out the ${pr.change}'s head commit, or add --commit auto: the change then ends at the ${pr.change}'s head`,
    );
  }
  let parsed;
  try {
    parsed = parseDiff(change.diff);
  } catch (err) {
    if (err instanceof DiffParseError) throw new UsageError(`--diff: cannot read git's diff: ${err.message}`, 'report this with the output of git diff --unified=0 -M');
    throw err;
  }
  addUntracked(parsed, change.untracked);
  // The policy's ignore rules take effect in the run of the change that writes them, before anyone
  // reviewed it: said, so that a reviewer sees it (README: protect the file with a code owner).
  const policy = policyFile === undefined ? undefined : relative(change.root, resolve(ctx.cwd, policyFile)).split(sep).join('/');
  if (policy !== undefined && parsed.files.has(policy)) {
    ctx.warn(`svc gate: this change edits the policy file ${policy}: its ignore rules apply to this run as the change writes them, before review (require a code owner's review of it)`);
  }
  const tracked = new Set(change.tracked);
  ctx.note(`svc gate: --diff ${base}: ${parsed.files.size} file${parsed.files.size === 1 ? '' : 's'} changed since ${change.mergeBase.slice(0, 12)} (the merge base)${opts.diffWorkTree ? ', with the work tree' : change.head ? ` up to ${change.head.slice(0, 12)} (the commit judged)` : ''}`);
  return {
    change: parsed, scope, tracked,
    about: { base, mergeBase: change.mergeBase, scope, workTree: opts.diffWorkTree === true, files: parsed.files.size },
  };
}
