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
import { access, constants, lstat, stat } from 'node:fs/promises';
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
import { DEFAULT_POLICY_FILE, PolicyError, isExpired, parsePolicy, utcDay, type IgnoreEntry } from '../../gate/policy-file.js';
import { PolicyEditError, addIgnores, parseExpiry, removeIgnores, type NewEntry } from '../../gate/policy-edit.js';
import { fingerprintOf } from '../../gate/fingerprint.js';
import type { IssueInput } from '../../gate/tally.js';
import { readText } from '../gate/setup.js';
import type { Runner } from '../runner.js';

interface FileOptions { policy?: string }
interface IgnoreOptions extends FileOptions { reason?: string; expires?: string; fingerprint?: boolean; verify?: boolean }

/** The policy file: --policy FILE, else .svc-policy.yml in the current directory (as `svc gate` reads it). */
function policyPath(ctx: Context, given: string | undefined): { path: string; shown: string } {
  if (given === undefined) return { path: resolve(ctx.cwd, DEFAULT_POLICY_FILE), shown: DEFAULT_POLICY_FILE };
  if (given.trim() === '') throw new UsageError('--policy needs a file name');
  return { path: resolve(ctx.cwd, given), shown: given };
}

/** The file's text, or undefined when nothing is at its path (a dangling symlink is not nothing). */
async function readPolicy(path: string, shown: string): Promise<string | undefined> {
  if (!(await lstat(path).then(() => true, () => false))) return undefined;
  return readText('--policy', path, shown);
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

/** Reads, edits and writes the file under its lock; the file keeps its mode. */
async function editPolicy<T>(path: string, shown: string, edit: (text: string | undefined) => { text: string; result: T; changed: boolean }): Promise<T> {
  // The lock file is made beside the policy: a folder that is missing or not writable is said now.
  const dir = dirname(path);
  const folder = await stat(dir).then((s) => (s.isDirectory() ? undefined : 'is not a folder'), (err: NodeJS.ErrnoException) => (err.code === 'ENOENT' ? 'does not exist' : `cannot be read (${err.code})`));
  if (folder) throw new UsageError(`cannot edit ${shown}: its folder ${dir} ${folder}`, 'run svc policy in the repository, or give --policy FILE');
  if (!(await access(dir, constants.W_OK).then(() => true, () => false))) throw new UsageError(`cannot edit ${shown}: its folder ${dir} is not writable`, 'check the folder\'s permissions, or give --policy FILE elsewhere');
  return withLock(path, async () => {
    const text = await readPolicy(path, shown);
    const { text: next, result, changed } = edit(text);
    if (changed) {
      const mode = await stat(path).then((s) => s.mode & 0o777, () => 0o644);
      try {
        await writeFileAtomic(path, next, mode);
      } catch (err) {
        throw new CliError(`cannot write ${shown} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); it is unchanged`, EXIT.OUTPUT, 'check the folder is writable and the disk has room');
      }
    }
    return result;
  }, undefined, `the policy file`);
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
  const { path, shown } = policyPath(ctx, o.policy);
  if (o.fingerprint && o.verify === false) throw new UsageError('--fingerprint reads the issue from the service, which --no-verify skips', 'drop one of them');
  // Looked up first (a typo is exit 4 before anything is written), unless --no-verify.
  const issues = o.verify === false ? new Map<string, IssueInput>() : await fetchIssues(ctx, ids);
  const entries: NewEntry[] = ids.map((id) => {
    const issue = issues.get(id);
    const note = noteOf(issue);
    const key = o.fingerprint ? { fingerprint: fingerprintOf(issue!) } : { id };
    return { ...key, reason, expires, ...(note ? { note: o.fingerprint ? `${id}: ${note}` : note } : {}) };
  });
  const done = await editPolicy(path, shown, (text) => {
    const r = asUsage(() => addIgnores(text, shown, entries), shown);
    return { text: r.text, result: r.done, changed: true };
  });
  const records = entries.map((e, i) => ({ issueId: ids[i], ...(e.fingerprint ? { fingerprint: e.fingerprint } : {}), action: done[i], expires, file: shown }));
  for (const r of records) ctx.note(`${r.action} ${r.issueId}${r.fingerprint ? ` (${r.fingerprint})` : ''} in ${shown}: not counted by svc gate up to and including ${expires}`);
  if (ctx.format() !== 'table') await renderResponse(ctx, { rows: undefined, columns: [] }, records, undefined, 'svc policy ignore');
}

async function unignore(ctx: Context, raw: string[], o: FileOptions): Promise<void> {
  const ids = new Set(issueIds(raw));
  const { path, shown } = policyPath(ctx, o.policy);
  const removed = await editPolicy(path, shown, (text) => {
    if (text === undefined) throw new CliError(`no policy file at ${shown}`, EXIT.NOT_FOUND, 'give --policy FILE');
    const r = asUsage(() => removeIgnores(text, shown, (e) => (e.id !== undefined && ids.has(e.id)) || (e.fingerprint !== undefined && ids.has(e.fingerprint))), shown);
    return { text: r.text, result: r.removed, changed: r.removed.length > 0 };
  });
  const found = new Set(removed.map((e) => e.id ?? e.fingerprint));
  for (const e of removed) ctx.note(`removed ${e.id ?? e.fingerprint} from ${shown} (was line ${e.line}): svc gate counts it again`);
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
  const { path, shown } = policyPath(ctx, o.policy);
  const text = await readPolicy(path, shown);
  if (text === undefined) throw new CliError(`no policy file at ${shown}`, EXIT.NOT_FOUND, 'svc policy ignore ISSUE_ID --reason ... --expires ... creates it');
  const policy = asUsage(() => parsePolicy(text, shown), shown);
  const today = utcDay(wallClock(ctx));
  const rows = policy.ignore.map((e) => entryRow(e, today)).filter((r) => !o.expired || r.expired);
  await renderResponse(ctx, { rows: undefined, columns: ['match', 'reason', 'expires', 'state', 'line'] }, rows, undefined, 'svc policy list');
}

async function prune(ctx: Context, o: FileOptions): Promise<void> {
  const { path, shown } = policyPath(ctx, o.policy);
  const today = utcDay(wallClock(ctx));
  const dry = ctx.globals.dryRun === true;
  const removed = await editPolicy(path, shown, (text) => {
    if (text === undefined) throw new CliError(`no policy file at ${shown}`, EXIT.NOT_FOUND, 'give --policy FILE');
    const r = asUsage(() => removeIgnores(text, shown, (e) => isExpired(e, today)), shown);
    return { text: r.text, result: r.removed, changed: !dry && r.removed.length > 0 };
  });
  if (removed.length === 0) { ctx.note(`${shown} has no expired entry (today is ${today}, UTC)`); return; }
  for (const e of removed) ctx.note(`${dry ? 'would remove' : 'removed'} ${entryRow(e, today).match} (expired ${e.expires}, line ${e.line})`);
  if (dry) ctx.note(`--dry-run: ${shown} is unchanged`);
}

export function policyCommand(run: Runner, cmd = new Command('policy')): Command {
  const file = () => new Option('--policy <file>', `The policy file (default: ${DEFAULT_POLICY_FILE} in the current directory, as svc gate reads it)`);
  cmd.description('Accept risks in the policy file: issues svc gate does not count until a date').helpCommand(false);
  cmd.addHelpText('after', [
    // One paragraph, fitted to the terminal by the one fitter (output/fit-text.ts): never wrapped by hand.
    '', `The entries go to ${DEFAULT_POLICY_FILE} (commit it: the accepted risks are reviewed with the code). Each has a reason and an expiry day; svc gate leaves the issue out of its count up to and including that day (UTC), then counts it again and says the entry expired. The file's other lines and comments are kept as they are.`,
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
