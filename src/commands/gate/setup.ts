/**
 * What `svc gate` reads before its first request, beyond its own flags: the policy file, the
 * baseline, --new-since / --commit, the CI it runs in and --repository. All of it is checked
 * up front: a policy or baseline that cannot be read is exit 2 before anything is sent.
 */
import { isUtf8 } from 'node:buffer';
import { lstat, readFile, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { detectCi, type CiInfo } from '../../ci/detect.js';
import { checkRepositoryFlag } from './scope-flags.js';
import { reviewCommit } from '../../ci/review-commit.js';
import { ciVcsFor, resolveRepositoryUrl } from '../../repos/find.js';
import type { Context } from '../../context.js';
import { wallClock } from '../../core/host.js';
import { CliError, UsageError } from '../../core/errors.js';
import { BaselineError, nameless, parseBaseline, type Baseline } from '../../gate/baseline.js';
import { GateUsageError } from '../../gate/policy.js';
import { DEFAULT_POLICY_FILE, PolicyError, parsePolicy, utcDay, type Policy } from '../../gate/policy-file.js';
import { entryLabel } from '../../gate/sifted-text.js';
import { parseCommit, parseSince } from '../../gate/since.js';
import type { SieveOptions } from '../../gate/sieve.js';
import type { GateOptions } from './options.js';
import { diffSetup } from './diff-setup.js';

type SetupOpts = Pick<GateOptions, 'policy' | 'baseline' | 'newSince' | 'commit' | 'issueUrl' | 'diff' | 'diffScope' | 'diffWorkTree'>;


/** Expired policy entries named one line each on stderr; the rest are counted in one line. */
const EXPIRED_SHOWN = 20;
export interface GateSetup {
  ci?: CiInfo;
  policy?: Policy;
  baseline?: Baseline;
  sieve: Omit<SieveOptions, 'keep' | 'slim' | 'cutoffs'>;
  /** Link to an issue from its id, for reports (--issue-url / SVC_ISSUE_URL). */
  issueUrl?: (id: string) => string;
}

/**
 * A file the gate reads, whole and as UTF-8: a directory, a dangling or looping symlink, a file that
 * cannot be read, one that is not UTF-8 is exit 2 naming it (a gate never runs looser because an
 * input could not be read; the parser then refuses an empty one). `flag` undefined: the policy file
 * read from the current directory, as no --policy was given (messages named --policy all the same).
 */
export async function readText(flag: '--policy' | '--baseline' | undefined, path: string, shown: string): Promise<string> {
  const hint = flag === '--baseline' ? 'give the --sarif or --json-report file of an earlier svc gate run'
    : flag === undefined ? 'svc reads it when no --policy is given: move it away, or give --policy FILE' : 'check the path';
  const named = flag === undefined ? `the policy file '${shown}' in the current directory` : `${flag} '${shown}'`;
  let bytes: Buffer;
  try {
    const s = await stat(path);
    if (s.isDirectory()) throw new UsageError(`${named} is a directory`, hint);
    if (!s.isFile()) throw new UsageError(`${named} is not a regular file`, hint);
    bytes = await readFile(path);
  } catch (err) {
    if (err instanceof CliError) throw err;
    const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    const why = code === 'ENOENT' && (await lstat(path).then((l) => l.isSymbolicLink(), () => false)) ? 'a symlink to nothing' : code === 'ELOOP' ? 'a symlink loop' : code;
    throw new UsageError(`cannot read ${named} (${why})`, hint);
  }
  if (!isUtf8(bytes)) throw new UsageError(`${named} is not UTF-8 text`, 'save the file as UTF-8');
  return bytes.toString('utf8');
}

/** The policy: --policy FILE, else .svc-policy.yml in the current directory when present. */
async function loadPolicy(ctx: Context, given: string | undefined): Promise<Policy | undefined> {
  let path: string;
  let shown: string;
  if (given !== undefined) {
    if (given.trim() === '') throw new UsageError('--policy needs a file name');
    path = resolve(ctx.cwd, given);
    shown = given;
  } else {
    path = resolve(ctx.cwd, DEFAULT_POLICY_FILE);
    shown = DEFAULT_POLICY_FILE;
    // Anything at that name (a directory, a broken symlink, an unreadable file) must be a policy that
    // can be read: only a name with nothing at it means "no policy".
    if (!(await lstat(path).then(() => true, () => false))) return undefined;
  }
  const text = await readText(given !== undefined ? '--policy' : undefined, path, shown);
  let policy: Policy;
  try {
    policy = parsePolicy(text, shown);
  } catch (err) {
    if (err instanceof PolicyError) throw new UsageError(`policy: ${err.message}`, 'fix the file (svc gate --help shows its format)');
    throw err;
  }
  ctx.note(`svc gate: read the policy ${shown} (${policy.ignore.length} ignore entr${policy.ignore.length === 1 ? 'y' : 'ies'})`);
  return policy;
}

async function loadBaseline(ctx: Context, given: string): Promise<Baseline> {
  if (given.trim() === '') throw new UsageError('--baseline needs a file name');
  const text = await readText('--baseline', resolve(ctx.cwd, given), given);
  try {
    return parseBaseline(text, given);
  } catch (err) {
    if (err instanceof BaselineError) throw new UsageError(`--baseline: ${err.message}`, 'give the --sarif or --json-report file of an earlier svc gate run');
    throw err;
  }
}

export async function gateSetup(ctx: Context, opts: SetupOpts): Promise<GateSetup> {
  const ci = detectCi(ctx.env, { disabled: ctx.globals.ci === false });
  const now = wallClock(ctx);
  const setup: GateSetup = { sieve: { today: utcDay(now) } };
  if (ci) setup.ci = ci;
  if (opts.newSince !== undefined) setup.sieve.since = parseSince(opts.newSince!, now);
  if (opts.commit !== undefined) {
    if (opts.commit.trim() === 'auto') {
      // The commit the CI built for review: a pull request's head, not the merge commit the CI made.
      const auto = await reviewCommit(ci, ctx.env, ctx.cwd);
      try {
        setup.sieve.commit = parseCommit(auto.sha);
      } catch (err) {
        if (err instanceof GateUsageError) throw new UsageError(`--commit auto: ${auto.from} gives '${auto.sha}', which is not a commit sha (7 to 64 hex digits)`, 'give the sha, e.g. --commit "$(git rev-parse HEAD)"');
        throw err;
      }
      ctx.note(`svc gate: --commit auto is ${setup.sieve.commit} (${auto.from})`);
    } else {
      setup.sieve.commit = parseCommit(opts.commit!);
    }
  }
  const issueUrl = opts.issueUrl ?? ctx.env.SVC_ISSUE_URL;
  if (issueUrl !== undefined && issueUrl.trim() !== '') {
    const template = issueUrl.trim();
    if (!/^https?:\/\/\S+$/.test(template) || !template.includes('{id}')) {
      throw new UsageError(`--issue-url expects an http(s) URL with {id} in it, got '${template}'`, 'e.g. --issue-url "https://svc.example/issues/{id}"');
    }
    setup.issueUrl = (id) => template.replaceAll('{id}', encodeURIComponent(id));
  }
  const policy = await loadPolicy(ctx, opts.policy);
  if (policy) {
    setup.policy = policy;
    setup.sieve.policy = policy;
    // One line each for the first few; the rest in one line (18,000 expired entries were 18,000 lines
    // of a CI log). Every one is in the reports (the markdown summary, -o json).
    const expired = policy.ignore.filter((entry) => entry.expires < setup.sieve.today);
    for (const entry of expired.slice(0, EXPIRED_SHOWN)) ctx.warn(`policy ${policy.file}:${entry.line}: expired ${entry.expires}: ${entryLabel(entry)} counts again`);
    if (expired.length > EXPIRED_SHOWN) ctx.warn(`policy ${policy.file}: ${expired.length - EXPIRED_SHOWN} more entries expired and count again (\`svc policy list\` lists them; \`svc policy prune\` removes them)`);
  }
  if (opts.baseline !== undefined) {
    setup.baseline = await loadBaseline(ctx, opts.baseline);
    const byIdOnly = nameless(setup.baseline);
    if (byIdOnly > 0) ctx.note(`svc gate: ${byIdOnly} entr${byIdOnly === 1 ? 'y' : 'ies'} of the baseline name${byIdOnly === 1 ? 's' : ''} no rule, file or title: matched by id only, never as a wildcard`);
    setup.sieve.baseline = setup.baseline;
  }
  // The change ends at the commit judged (a pull request's head), not at the merge commit checked out.
  const diff = await diffSetup(ctx, opts, setup.sieve.commit, setup.policy?.file);
  if (diff) setup.sieve.diff = diff;
  return setup;
}


/** The repository `--repository` names: its id, and the URL it was found by (none for an id). */
interface GateRepository {
  id: string;
  /** The URL (normalised) the service resolved to `id`: the scope check compares it with the repository's record (scope.ts). */
  url?: string;
}

/**
 * `--repository ID|URL|auto`: an id as is; a URL, or the CI's own repository with `auto`, found
 * whatever its provider (src/repos/find.ts). The service not knowing it is exit 4.
 */
export async function resolveRepository(ctx: Context, value: string, ci: CiInfo | undefined, organizationId: unknown): Promise<GateRepository> {
  const v = value.trim();
  const kind = checkRepositoryFlag(v, ci, ctx.env);
  if (kind === 'id') return { id: v };
  const url = kind === 'auto' ? ci!.repositoryUrl! : v;
  const vcs = kind === 'auto' ? ci!.vcs : ciVcsFor(url, ci);
  const found = await resolveRepositoryUrl(ctx, url, {
    label: kind === 'auto' ? `--repository auto (${ci!.name})` : '--repository',
    ...(vcs ? { vcs } : {}),
    ...(typeof organizationId === 'string' ? { organizationId } : {}),
  });
  ctx.note(`svc gate: repository ${found.url} is ${found.repositoryId}`);
  return { id: found.repositoryId, url: found.url };
}
