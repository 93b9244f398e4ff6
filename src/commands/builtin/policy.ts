/**
 * `svc policy ignore|unignore|list|prune`: the accepted risks of the policy file (`.svc-policy.yml`,
 * or `--policy FILE`), from the command line, as `snyk ignore` writes `.snyk`. The gate reads the same
 * file: an ignored issue is not counted until its entry expires (then it counts again, and the gate
 * says the entry expired).
 *
 * The file is edited as text (gate/policy-edit.ts: its other lines, comments and entries untouched),
 * under a lock (two `svc policy ignore` at once lose nothing), written atomically (a reader sees the
 * old file or the new one), keeping its mode; an edit that would not read back is never written.
 */
import { Command, Option } from 'commander';
import { access, constants, lstat, realpath, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { Context } from '../../context.js';
import { CliError, UsageError } from '../../core/errors.js';
import { EXIT } from '../../core/exit-codes.js';
import { wallClock } from '../../core/host.js';
import { stripControls } from '../../core/sanitize.js';
import { withLock } from '../../config/lock.js';
import { writeFileAtomic } from '../../output/write-file.js';
import { renderResponse } from '../../output/respond.js';
import { rowOf } from '../../operations/index.js';
import { callRow } from '../../http/row-call.js';
import { printDryRun } from '../../http/dry-run.js';
import { DEFAULT_POLICY_FILE, PolicyError, isExpired, parsePolicy, utcDay, type IgnoreEntry } from '../../gate/policy-file.js';
import { PolicyEditError, addIgnores, parseExpiry, removeIgnores, type NewEntry } from '../../gate/policy-edit.js';
import { fingerprintOf } from '../../gate/fingerprint.js';
import type { IssueInput } from '../../gate/tally.js';
import { readText } from '../gate/setup.js';
import type { Runner } from '../runner.js';

interface FileOptions { policy?: string }
interface IgnoreOptions extends FileOptions { reason?: string; expires?: string; fingerprint?: boolean; verify?: boolean }

/** Where the policy file is; `flag` undefined: none was given, it is the one of the current directory. */
interface PolicyAt { path: string; shown: string; flag?: '--policy' }

/** The policy file: --policy FILE, else .svc-policy.yml in the current directory (as `svc gate` reads it). */
function policyPath(ctx: Context, given: string | undefined): PolicyAt {
  if (given === undefined) return { path: resolve(ctx.cwd, DEFAULT_POLICY_FILE), shown: DEFAULT_POLICY_FILE };
  if (given.trim() === '') throw new UsageError('--policy needs a file name');
  return { path: resolve(ctx.cwd, given), shown: given, flag: '--policy' };
}

/** The file's text (at `path`: a link's target), or undefined when nothing is there (a dangling symlink is not nothing). */
async function readPolicy(at: PolicyAt, path = at.path): Promise<string | undefined> {
  if (!(await lstat(path).then(() => true, () => false))) return undefined;
  return readText(at.flag, path, at.shown);
}

/** Issue ids as given: trimmed (a CRLF line's \r too), none empty. */
function issueIds(raw: string[]): string[] {
  const ids = raw.flatMap((r) => r.split(',')).map((s) => s.trim());
  const bad = ids.find((id) => id === '' || /[\s\p{Cc}]/u.test(id));
  if (bad !== undefined) throw new UsageError(bad === '' ? 'an issue id is empty' : `'${stripControls(bad)}' is not an issue id (it holds spaces or control characters)`);
  return [...new Set(ids)];
}

/** A policy error (the file or the edit) as the one line svc prints: exit 2, nothing written. */
function asUsage<T>(fn: () => T, shown: string): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof PolicyError) throw new UsageError(`policy: ${err.message}`, `fix ${shown} first (svc gate --help shows its format); nothing was written`);
    if (err instanceof PolicyEditError) throw new UsageError(err.message);
    throw err;
  }
}

/**
 * Reads, edits and writes the file under its lock; the file keeps its mode. A symbolic link keeps
 * leading where it led: the file it leads to is edited (a policy shared through a link stays shared),
 * never replaced by a copy. A file without write permission is not written over (exit 2). `dryRun`:
 * the edit is made and checked, nothing is written.
 */
async function editPolicy<T>(at: PolicyAt, edit: (text: string | undefined) => { text: string; result: T; changed: boolean }, dryRun = false): Promise<T> {
  const { shown } = at;
  const path = await linkTarget(at.path);
  // The lock file is made beside the policy: a folder that is missing or not writable is said now.
  const dir = dirname(path);
  const folder = await stat(dir).then((s) => (s.isDirectory() ? undefined : 'is not a folder'), (err: NodeJS.ErrnoException) => (err.code === 'ENOENT' ? 'does not exist' : `cannot be read (${err.code})`));
  if (folder) throw new UsageError(`cannot edit ${shown}: its folder ${dir} ${folder}`, 'run svc policy in the repository, or give --policy FILE');
  if (dryRun) {
    const { result } = edit(await readPolicy(at, path));
    return result;
  }
  if (!(await access(dir, constants.W_OK).then(() => true, () => false))) throw new UsageError(`cannot edit ${shown}: its folder ${dir} is not writable`, 'check the folder\'s permissions, or give --policy FILE elsewhere');
  return withLock(path, async () => {
    const text = await readPolicy(at, path);
    const { text: next, result, changed } = edit(text);
    if (changed) {
      const info = await stat(path).catch(() => undefined);
      // Written by a rename, which a file's own permissions do not stop: they are asked here.
      if (info && ((info.mode & 0o222) === 0 || !(await access(path, constants.W_OK).then(() => true, () => false)))) {
        throw new UsageError(`${shown} is read-only; it is unchanged`, `make it writable first (chmod u+w ${shown}) if the change is meant`);
      }
      const mode = info ? info.mode & 0o777 : 0o644;
      try {
        await writeFileAtomic(path, next, mode);
      } catch (err) {
        throw new CliError(`cannot write ${shown} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); it is unchanged`, EXIT.OUTPUT, 'check the folder is writable and the disk has room');
      }
    }
    return result;
  }, undefined, `the policy file`);
}

/** The file a path leads to: itself, or the end of its symbolic links (a link to nothing: itself, said when read). */
async function linkTarget(path: string): Promise<string> {
  const link = await lstat(path).then((l) => l.isSymbolicLink(), () => false);
  return link ? realpath(path).catch(() => path) : path;
}

/** Each issue as the service has it (issues get, through its row), for its title and fingerprint. */
async function fetchIssues(ctx: Context, ids: string[]): Promise<Map<string, IssueInput>> {
  const op = await rowOf('issues', 'get');
  const client = await ctx.client();
  const org = ctx.organization().id;
  const out = new Map<string, IssueInput>();
  for (const id of ids) {
    // An answer that is not an issue record (an object, as the row documents) is exit 7 (callRow).
    const issue = await ctx.spin(`issues get ${id}`, () => callRow(client, op, { issueId: id, ...(org ? { organizationId: org } : {}) }, { what: `issues get ${id}`, hint: 'give --no-verify to write the entry without looking it up' }));
    out.set(id, issue as IssueInput);
  }
  return out;
}

/** A title as one comment line: no control characters, at most 72 characters. */
const noteOf = (issue: IssueInput | undefined): string | undefined => {
  const t = issue && typeof issue.generatedTitle === 'string' ? stripControls(issue.generatedTitle).replace(/\s+/g, ' ').trim() : '';
  return t === '' ? undefined : t.length > 72 ? `${t.slice(0, 71)}…` : t;
};

async function ignore(ctx: Context, raw: string[], o: IgnoreOptions): Promise<void> {
  const ids = issueIds(raw);
  const reason = o.reason?.trim() ?? '';
  if (reason === '') throw new UsageError('--reason is required: why is this risk accepted?', 'e.g. --reason "test fixture, never deployed (SEC-42)"');
  if (o.expires === undefined) throw new UsageError('--expires is required: every accepted risk is reviewed again', 'e.g. --expires 90d or --expires 2027-03-01');
  const today = utcDay(wallClock(ctx));
  const expires = asUsage(() => parseExpiry(o.expires!, today), '--expires');
  const at = policyPath(ctx, o.policy);
  const { shown } = at;
  if (o.fingerprint && o.verify === false) throw new UsageError('--fingerprint reads the issue from the service, which --no-verify skips', 'drop one of them');
  const dry = ctx.globals.dryRun === true;
  // Looked up first (a typo is exit 4 before anything is written), unless --no-verify. --dry-run
  // prints the lookups instead of sending them (as every command does) and writes nothing.
  if (dry && o.verify !== false) await printLookups(ctx, ids);
  if (dry && o.fingerprint) {
    for (const id of ids) ctx.note(`would add the fingerprint of ${id} (read from the service) in ${shown}: not counted by svc gate up to and including ${expires}`);
    ctx.note(`--dry-run: ${shown} is unchanged`);
    return;
  }
  const issues = o.verify === false || dry ? new Map<string, IssueInput>() : await fetchIssues(ctx, ids);
  const entries: NewEntry[] = ids.map((id) => {
    const issue = issues.get(id);
    const note = noteOf(issue);
    const key = o.fingerprint ? { fingerprint: fingerprintOf(issue!) } : { id };
    return { ...key, reason, expires, ...(note ? { note: o.fingerprint ? `${id}: ${note}` : note } : {}) };
  });
  const done = await editPolicy(at, (text) => {
    const r = asUsage(() => addIgnores(text, shown, entries), shown);
    return { text: r.text, result: r.done, changed: true };
  }, dry);
  const records = entries.map((e, i) => ({ issueId: ids[i], ...(e.fingerprint ? { fingerprint: e.fingerprint } : {}), action: done[i], expires, file: shown }));
  for (const r of records) ctx.note(`${dry ? `would ${r.action === 'added' ? 'add' : 'update'}` : r.action} ${r.issueId}${r.fingerprint ? ` (${r.fingerprint})` : ''} in ${shown}: not counted by svc gate up to and including ${expires}`);
  if (dry) {
    ctx.note(`--dry-run: ${shown} is unchanged`);
    return;
  }
  if (ctx.format() !== 'table') await renderResponse(ctx, { rows: undefined, columns: [] }, records, undefined, 'svc policy ignore');
}

/** --dry-run: the issue lookups as they would be sent (issues get, through its row). */
async function printLookups(ctx: Context, ids: string[]): Promise<void> {
  const op = await rowOf('issues', 'get');
  const org = ctx.organization().id;
  for (const id of ids) printDryRun(ctx, op.path, { issueId: id, ...(org ? { organizationId: org } : {}) });
}

async function unignore(ctx: Context, raw: string[], o: FileOptions): Promise<void> {
  const ids = new Set(issueIds(raw));
  const at = policyPath(ctx, o.policy);
  const { shown } = at;
  const dry = ctx.globals.dryRun === true;
  const removed = await editPolicy(at, (text) => {
    if (text === undefined) throw new CliError(`no policy file at ${shown}`, EXIT.NOT_FOUND, 'give --policy FILE');
    const r = asUsage(() => removeIgnores(text, shown, (e) => (e.id !== undefined && ids.has(e.id)) || (e.fingerprint !== undefined && ids.has(e.fingerprint))), shown);
    return { text: r.text, result: r.removed, changed: r.removed.length > 0 };
  }, dry);
  const found = new Set(removed.map((e) => e.id ?? e.fingerprint));
  for (const e of removed) ctx.note(`${dry ? 'would remove' : 'removed'} ${e.id ?? e.fingerprint} from ${shown} (${dry ? '' : 'was '}line ${e.line}): svc gate counts it again`);
  if (dry && removed.length > 0) ctx.note(`--dry-run: ${shown} is unchanged`);
  const missing = [...ids].filter((id) => !found.has(id));
  if (missing.length > 0) throw new CliError(`${shown} has no entry for ${missing.join(', ')}`, EXIT.NOT_FOUND, `svc policy list${o.policy ? ` --policy ${o.policy}` : ''} shows its entries`);
}

/** An entry as a row: what it matches, why, until when, and its state today. */
function entryRow(e: IgnoreEntry, today: string): Record<string, unknown> {
  const days = Math.round((Date.parse(`${e.expires}T00:00:00Z`) - Date.parse(`${today}T00:00:00Z`)) / 86_400_000);
  const state = isExpired(e, today) ? `expired ${-days} day${days === -1 ? '' : 's'} ago` : days === 0 ? 'expires today' : `${days} day${days === 1 ? '' : 's'} left`;
  const match = e.id !== undefined ? `id ${e.id}` : e.fingerprint !== undefined ? `fingerprint ${e.fingerprint}` : [e.rule !== undefined ? `rule ${e.rule}` : '', e.path !== undefined ? `path ${e.path}` : ''].filter(Boolean).join(', ');
  return { match, reason: e.reason, expires: e.expires, state, expired: isExpired(e, today), line: e.line, ...(e.id !== undefined ? { id: e.id } : {}), ...(e.fingerprint !== undefined ? { fingerprint: e.fingerprint } : {}), ...(e.rule !== undefined ? { rule: e.rule } : {}), ...(e.path !== undefined ? { path: e.path } : {}) };
}

async function list(ctx: Context, o: FileOptions & { expired?: boolean }): Promise<void> {
  const at = policyPath(ctx, o.policy);
  const { shown } = at;
  const text = await readPolicy(at);
  if (text === undefined) throw new CliError(`no policy file at ${shown}`, EXIT.NOT_FOUND, 'svc policy ignore ISSUE_ID --reason ... --expires ... creates it');
  const policy = asUsage(() => parsePolicy(text, shown), shown);
  const today = utcDay(wallClock(ctx));
  const rows = policy.ignore.map((e) => entryRow(e, today)).filter((r) => !o.expired || r.expired);
  await renderResponse(ctx, { rows: undefined, columns: ['match', 'reason', 'expires', 'state', 'line'] }, rows, undefined, 'svc policy list');
}

async function prune(ctx: Context, o: FileOptions): Promise<void> {
  const at = policyPath(ctx, o.policy);
  const { shown } = at;
  const today = utcDay(wallClock(ctx));
  const dry = ctx.globals.dryRun === true;
  const removed = await editPolicy(at, (text) => {
    if (text === undefined) throw new CliError(`no policy file at ${shown}`, EXIT.NOT_FOUND, 'give --policy FILE');
    const r = asUsage(() => removeIgnores(text, shown, (e) => isExpired(e, today)), shown);
    return { text: r.text, result: r.removed, changed: r.removed.length > 0 };
  }, dry);
  if (removed.length === 0) { ctx.note(`${shown} has no expired entry (today is ${today}, UTC)`); return; }
  for (const e of removed) ctx.note(`${dry ? 'would remove' : 'removed'} ${entryRow(e, today).match} (expired ${e.expires}, line ${e.line})`);
  if (dry) ctx.note(`--dry-run: ${shown} is unchanged`);
}

export function policyCommand(run: Runner, cmd = new Command('policy')): Command {
  const file = () => new Option('--policy <file>', `The policy file (default: ${DEFAULT_POLICY_FILE} in the current directory, as svc gate reads it)`);
  cmd.description('Accept risks in the policy file: issues svc gate does not count until a date').helpCommand(false);
  cmd.addHelpText('after', [
    // One paragraph, fitted to the terminal by the one fitter (output/fit-text.ts): never wrapped by hand.
    '', `The entries go to ${DEFAULT_POLICY_FILE} (commit it: the accepted risks are reviewed with the code). Each has a reason and an expiry day; svc gate leaves the issue out of its count up to and including that day (UTC), then counts it again and says the entry expired. The file's other lines and comments are kept as they are; a symbolic link keeps leading where it did (the file it leads to is edited). --dry-run on any of them says what would change and writes nothing.`,
    '', 'Examples:',
    '  $ svc policy ignore iss_123 --reason "test fixture, never deployed (SEC-42)" --expires 90d',
    '  $ svc policy list',
    '  $ svc policy prune',
  ].join('\n') + '\n');
  cmd.command('ignore').description('Accept the risk of issues until a day: svc gate does not count them')
    .argument('<issue-id...>', 'issue ids (or one comma-separated list)')
    .option('--reason <text>', 'Why the risk is accepted (required; shown by svc gate and in its reports)')
    .option('--expires <day|days>', 'Last day the entry applies, UTC: 2027-03-01, or from today: 30d, 12w (required)')
    .option('--fingerprint', "Match the issue by its fingerprint (as svc gate's reports and baselines do), so the entry holds when the service finds it again under a new id")
    .option('--no-verify', 'Write the entries without looking the issues up in the service (offline)')
    .addOption(file())
    .addHelpText('after', '\nExample:\n  $ svc policy ignore iss_123 --reason "false alarm in generated code" --expires 2027-03-01\n')
    .action((ids: string[], o: IgnoreOptions) => run((ctx) => ignore(ctx, ids, o)));
  cmd.command('unignore').description('Remove the entries of issues (by id or fingerprint): svc gate counts them again')
    .argument('<issue-id...>', 'issue ids or fingerprints')
    .addOption(file())
    .action((ids: string[], o: FileOptions) => run((ctx) => unignore(ctx, ids, o)));
  cmd.command('list').description('The entries, with their reason, expiry and state (days left, or expired)')
    .option('--expired', 'Only the entries that have expired')
    .addOption(file())
    .action((o: FileOptions & { expired?: boolean }) => run((ctx) => list(ctx, o)));
  cmd.command('prune').description('Remove the entries that have expired (--dry-run: say which, change nothing)')
    .addOption(file())
    .action((o: FileOptions) => run((ctx) => prune(ctx, o)));
  return cmd;
}
