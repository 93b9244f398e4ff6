/**
 * The run step of `svc gate`: check the flags, read every open issue in the scope (all pages,
 * checked against totalCount), count them per level, decide, write the reports, print the verdict.
 *
 * Fail closed: exit 0 only when every page was read, the number read equals totalCount, and every
 * threshold held. Anything that stops the count (401 -> 3, network/5xx -> 6, an incomplete or
 * changing listing -> 7, Ctrl-C -> 130) ends with that code; JUnit, markdown and JSON reports then say
 * the gate could not decide, and no SARIF or host B report is written (an empty one would read as "no
 * issues"): one an earlier run left at the path is removed. A report that cannot be written does not
 * change a failing verdict's code (1); a passing verdict is then not a pass (9, or 2 for a path), and
 * the reports it wrote and the step summary are rewritten (or removed) as those of a run without a verdict.
 *
 * Memory: issues are counted as pages arrive. Only the issues a report or the verdict lists are
 * kept, without their heaviest fields (code segment, patch, rule-violation text): with --sarif,
 * --junit or --annotations every open issue (the reports list them all), else only those at a
 * level that a threshold looks at.
 */
import { access, constants, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { Context } from '../../context.js';
import { wallClock } from '../../core/host.js';
import { CliError, UsageError } from '../../core/errors.js';
import { EXIT } from '../../core/exit-codes.js';
import { createTally, type IssueInput, type Thresholds } from '../../gate/verdict.js';
import type { GateVerdict } from './decision.js';
import { scrub } from '../../http/redact.js';
import { ResponseError } from '../../http/api-errors.js';
import { buildRequestBody } from '../../request/build.js';
import { Pager, allowListeners } from '../../listing/pager.js';
import { count } from '../../terminal/progress.js';
import { BufferPool } from '../../http/buffer-pool.js';
import { decodePage, releasePage } from '../../listing/page-decode.js';
import { askedFormat } from '../../output/data-format.js';
import { printDryRun } from '../../http/dry-run.js';
import { searchOperation } from './scope-flags.js';
import { checkOutput } from '../../output/respond.js';
import { verifyScope } from './scope.js';
import { verifyCommitScanned } from './commit-scan.js';
import { printVerdict } from './summary.js';
import { REPORT_KEYS, ReportWriteError, kindOf, reportsKeep, undecidedNote, writeErrorReports, writeReports, writeSarifReport, type ReportInputs, type ReportKey, type ReportPaths } from './reports.js';
import { sarifCapLine } from './sarif-cap.js';
import { checkRepositoryFlag, gateSetup, resolveRepository, type GateSetup } from './setup.js';
import { checkRepositoryName, type RepositoryNames } from './repository-names.js';
import { checkIssueRepository, type ScopeRepositories } from './scope-repositories.js';
import { createSieve } from '../../gate/sieve.js';
import { fingerprintOf } from '../../gate/fingerprint.js';
import { repositoriesOf, repositoryOf, writeStepSummary, writeStepSummaryError } from './ci-reports.js';
import { thresholds, type GateOptions } from './options.js';
import { postComment } from './post-comment.js';
import { toComment, toCommentError } from '../../gate/reports/comment.js';
import { siftedLines } from '../../gate/sifted-text.js';
import { UntrustedValueError, checkIssueValues } from '../../gate/trust.js';
import { checkOutputsSpareInputs, type NamedFile } from './file-clash.js';
import { spillStore, type SpillStore } from './spill.js';
import { writeModeFor } from '../../output/write-file.js';

/** Fields dropped from the issues the gate keeps: large, and in no report. */
const HEAVY_FIELDS = ['sastCodeSegment', 'businessLogicScenario', 'validationSecurityAssessment', 'patch', 'naturalLanguageRuleViolation'];

/**
 * How the gate keeps a counted issue: without its heavy fields, its id a string, and with
 * `fingerprints` its fingerprint (a sha256: what reports, -o json/csv and baselines show; the table
 * summary shows none, so a gate that writes only that computes none).
 *
 * In place: the gate owns every issue it counts (each item of a page is parsed on its own), so the
 * issue is changed and returned, not copied (a copy of 28,000 issues cost ~0.2 s at 100,000 issues).
 * A heavy field becomes undefined, which JSON leaves out as it leaves out a missing one. An issue
 * whose first field is not its id is copied with the id first, as the gate has always listed them.
 */
export function slimmer(fingerprints: boolean): (issue: IssueInput) => IssueInput {
  return (issue) => {
    let first: string | undefined;
    for (const key in issue) { first = key; break; }
    let out: IssueInput;
    if (first === 'id') {
      out = issue;
      if (typeof out.id !== 'string') out.id = String(out.id);
      for (const key of HEAVY_FIELDS) if (out[key] !== undefined) out[key] = undefined;
    } else {
      out = { id: String(issue.id) };
      for (const key in issue) if (key !== 'id' && !HEAVY_FIELDS.includes(key)) out[key] = issue[key];
    }
    if (fingerprints && typeof out.fingerprint !== 'string') out.fingerprint = fingerprintOf(issue);
    return out;
  };
}
/** The kept issue as reports and baselines need it, with its fingerprint. */
export const slimIssue = slimmer(true);

/** Report paths, resolved and checked before anything is sent. */
async function reportPaths(ctx: Context, files: ReportPaths): Promise<ReportPaths> {
  const paths: ReportPaths = {};
  const seen = new Map<string, string>();
  for (const kind of REPORT_KEYS) {
    const given = files[kind];
    if (given === undefined) continue;
    const flag = kindOf(kind).flag;
    if (given.trim() === '') throw new UsageError(`${flag} needs a file name`);
    // `-` is stdout (written in place, like a FIFO or a device: see output/write-file.ts).
    const path = given === '-' ? '-' : resolve(ctx.cwd, given);
    const other = seen.get(path);
    if (other) throw new UsageError(`${other} and ${flag} name the same file '${given}'`, 'give each report its own file');
    seen.set(path, flag);
    if (path === '-') { paths[kind] = path; continue; }
    const dir = dirname(path);
    try {
      if (!(await stat(dir)).isDirectory()) throw new Error('not a directory');
      await access(dir, constants.W_OK);
    } catch {
      throw new UsageError(`cannot write the ${flag} report '${given}': its directory does not exist or is not writable`, 'create the directory first');
    }
    if (await stat(path).then((s) => s.isDirectory(), () => false)) throw new UsageError(`${flag} '${given}' is a directory`);
    // What the writing would refuse (a symlink loop, a link to nothing in a missing directory, a block
    // device): refused now, before anything is sent.
    await writeModeFor(path).catch((err: NodeJS.ErrnoException) => {
      throw new UsageError(`cannot write the ${flag} report '${given}' (${err.code ?? err.message})`, 'give a regular file, a new path, or a symbolic link to one in an existing directory');
    });
    paths[kind] = path;
  }
  return paths;
}

/** The files the run writes: the reports (not stdout) and the CI's step summary. */
function outputFiles(paths: ReportPaths, given: ReportPaths, stepSummary: string | undefined): NamedFile[] {
  const out: NamedFile[] = [];
  for (const kind of REPORT_KEYS) {
    const path = paths[kind];
    if (path !== undefined && path !== '-') out.push({ flag: kindOf(kind).flag, given: given[kind] ?? path, path });
  }
  if (stepSummary !== undefined) out.push({ flag: 'the CI step summary', given: stepSummary, path: stepSummary });
  return out;
}

/** The files the run reads: the baseline, the policy (given or the default one found), --input, -F name=@file, svc's config file. */
function inputFiles(ctx: Context, opts: GateOptions, setup: GateSetup): NamedFile[] {
  // The config file (profiles, the stored token): a report over it would lose them.
  const files: NamedFile[] = [{ flag: 'the config file', given: ctx.config.path, path: resolve(ctx.cwd, ctx.config.path), hint: 'write the report to another file: this one holds the profiles and the stored token' }];
  const add = (flag: string, given: string | undefined) => {
    if (given !== undefined && given !== '-' && given.trim() !== '') files.push({ flag, given, path: resolve(ctx.cwd, given) });
  };
  add('--baseline', opts.baseline);
  add('--policy', opts.policy ?? (setup.policy ? setup.policy.file : undefined));
  const values = opts.scope.values as Record<string, unknown>;
  add('--input', typeof values.input === 'string' ? values.input : undefined);
  for (const key of ['field', 'rawField']) {
    const list = values[key];
    if (Array.isArray(list)) for (const f of list) if (typeof f === 'string' && /=@/.test(f)) add('-F', f.slice(f.indexOf('=@') + 2));
  }
  return files;
}

/** The body of every page of the gate's listing: the scope, its counts asked for, oldest first. */
function gateSearchBody(scope: Record<string, unknown>): Record<string, unknown> {
  return { ...scope, getCounts: true, sortBy: 'createdAt', sortOrder: 'asc' };
}

/** The run step of `svc gate`, on options parsed by parseGateOptions (options.ts). */
export async function runGate(ctx: Context, opts: GateOptions): Promise<void> {
  // Everything the user can get wrong is checked before the first request.
  const startedAt = wallClock(ctx);
  const setup = await gateSetup(ctx, opts);
  const options = thresholds(opts, setup.policy);
  const size = opts.pageSize;
  const format = askedFormat(ctx);
  if (opts.annotations && format !== 'table') {
    throw new UsageError(`--annotations writes workflow commands to stdout, which -o ${format} needs for itself`, 'drop -o, or write the data with a report flag (--sarif, --junit, --markdown)');
  }
  if (ctx.globals.jq !== undefined) await checkOutput(ctx);
  // On a CI that shows annotations from log lines they are on by default (--no-annotations turns
  // them off); stdout stays the data's own with -o json/ndjson/csv.
  const annotations = opts.annotations ?? (setup.ci?.annotations !== undefined && format === 'table');
  const paths = await reportPaths(ctx, opts.reports);
  // The CI's step-summary file: appended to, never replaced.
  const stepSummary = setup.ci?.stepSummary ? resolve(ctx.cwd, setup.ci.stepSummary) : undefined;
  // --markdown naming the step summary appends too: earlier steps' content is never replaced.
  if (stepSummary !== undefined && paths.markdown === stepSummary) delete paths.markdown;
  // No output of the run is one of its inputs (file-clash.ts): checked before anything is sent or written.
  await checkOutputsSpareInputs(outputFiles(paths, opts.reports, stepSummary), inputFiles(ctx, opts, setup));
  // From here on the report paths are known to spare the inputs: a run that ends without a verdict
  // (a usage error found now, exit 2, too) leaves no earlier run's report at them (undecided below).
  let built: Record<string, unknown>;
  const scope: Record<string, unknown> = { types: ['open'] };
  try {
    built = await buildRequestBody(ctx, searchOperation(), opts.scope.flags, opts.scope.values);
    Object.assign(scope, built, { types: ['open'] });
    if (opts.repository !== undefined) {
      if (built.repositoryIds !== undefined) throw new UsageError('give --repository or --repository-ids, not both');
      // Resolved (a URL, or auto) in the try below; --dry-run sends nothing, so it only says so.
      const v = opts.repository.trim();
      const kind = checkRepositoryFlag(v, setup.ci, ctx.env);
      const resolved = kind === 'auto' ? `<resolved from ${setup.ci!.repositoryUrl}>` : kind === 'url' ? `<resolved from ${v}>` : v;
      scope.repositoryIds = ctx.globals.dryRun ? [resolved] : undefined;
    }
    if (opts.wait && typeof scope.scanId !== 'string') throw new UsageError('--wait waits for the scan of --scan-id, and none is given', 'add --scan-id, or drop --wait');
  } catch (err) {
    // Nothing was sent, and nothing is: no comment (--dry-run writes nothing at all).
    if (!ctx.globals.dryRun) await undecided(ctx, opts, { setup, stepSummary }, paths, err, false);
    throw err;
  }
  if (ctx.globals.dryRun) {
    printDryRun(ctx, searchOperation().path, { ...gateSearchBody(scope), page: 1, pageSize: size });
    return;
  }

  // The kept issues, past a few thousand, in a temporary file (spill.ts): closed and removed at the end.
  // With --sarif, the repositories of the counted issues are noted as they are kept (the warning below).
  const repositories = new Set<string>();
  const seen = paths.sarif ? (issue: IssueInput) => { const name = repositoryOf(issue); if (name !== undefined) repositories.add(name); } : undefined;
  const store = spillStore({ ...opts.spill, seen });
  try {
    await decideAndReport(ctx, opts, { setup, options, format, annotations, paths, stepSummary, scope, built, startedAt, store, repositories });
  } finally {
    store.close();
  }
}

interface GateRun {
  setup: GateSetup;
  options: Thresholds;
  format: ReturnType<typeof askedFormat>;
  annotations: boolean;
  paths: ReportPaths;
  stepSummary: string | undefined;
  scope: Record<string, unknown>;
  built: Record<string, unknown>;
  startedAt: number;
  store: SpillStore;
  repositories: ReadonlySet<string>;
}

/** Counts, decides, writes the reports and prints the verdict (runGate's second half). */
async function decideAndReport(ctx: Context, opts: GateOptions, g: GateRun): Promise<void> {
  const { setup, options, format, annotations, paths, stepSummary, scope, built, startedAt } = g;
  const size = opts.pageSize;
  const concurrency = opts.concurrency;
  const wait = opts.wait;
  let verdict: GateVerdict;
  // -o json lists every counted issue (a later --baseline reads them back), as some reports do (reports.ts).
  const asData = format === 'json' || format === 'ndjson';
  const keep = reportsKeep(paths);
  const keepAll = keep.everyIssue || annotations || asData || opts.comment;
  try {
    const repository = opts.repository !== undefined ? await resolveRepository(ctx, opts.repository, setup.ci, built.organizationId) : undefined;
    if (repository) scope.repositoryIds = [repository.id];
    // Every id of the scope exists and its scan has finished, or there is no verdict (4, 8, 1); a
    // repository found by its URL has that URL in its record (7).
    const { verified, repositoryNames, repositories } = await verifyScope(ctx, scope, { wait, ...(repository?.url !== undefined ? { resolvedUrl: repository.url } : {}) });
    // Fingerprints only where something shows them: reports that list every issue, -o json/ndjson/csv.
    const counted = await countIssues(ctx, scope, options, setup, { size, concurrency, keepAll, keepSifted: keep.siftedIssues || asData, fingerprints: keepAll || format !== 'table', store: g.store, repositoryNames, repositories });
    // --commit: no verdict unless the service shows a finished scan of that commit (4, 8, 1, 7).
    if (setup.sieve.commit !== undefined) verified.commit = await verifyCommitScanned(ctx, scope, setup.sieve.commit, counted.sifted?.commitScans, repositories);
    verdict = { ...counted, verified, organization: organizationInUse(ctx, built) };
  } catch (err) {
    await undecided(ctx, opts, g, paths, err);
    throw err;
  }
  const inputs: ReportInputs = { version: ctx.version, startedAt, endedAt: wallClock(ctx), issueUrl: setup.issueUrl };
  // A report that cannot be written is said and the others are written: a failing verdict keeps its
  // code (1), a passing one ends with the write's (9, or 2 for a path) and no summary (below).
  const failed: ReportWriteError[] = [];
  const written: ReportKey[] = [];
  let sarifFailed = false;
  const said = (err: ReportWriteError) => { failed.push(err); ctx.warn(`${err.message}; ${err.hint}`); };
  try {
    // Within host A's code-scanning limits: the most severe results, the rest said (gate/caps.ts); the
    // SARIF report is written first, measured as it is written (reports.ts writeSarifReport).
    let rest = paths;
    if (paths.sarif) {
      try {
        inputs.sarif = await writeSarifReport(paths.sarif, verdict, inputs, ctx.io.stdout, ctx.signal);
      } catch (err) {
        if (!(err instanceof ReportWriteError)) throw err;
        said(err);
        sarifFailed = true;
        rest = { ...paths, sarif: undefined };
      }
      written.push('sarif');
    }
    for (const line of sarifCapLine(inputs.sarif)) ctx.warn(line);
    for (const err of await writeReports(rest, verdict, { ...inputs, stdout: ctx.io.stdout, note: ctx.note, signal: ctx.signal }, ['sarif'], written)) said(err);
  } catch (err) {
    // Ctrl-C, or the kept issues' file failing, while the reports were written: the ones not written
    // yet are those of a run without a verdict.
    const rest = Object.fromEntries(Object.entries(paths).filter(([k]) => !written.includes(k as ReportKey))) as ReportPaths;
    await undecided(ctx, opts, g, rest, err);
    throw err;
  }
  // A pass whose reports are not all written is not a pass: nothing this run wrote may say "passed".
  // The reports written before (or after) the failing one are rewritten as undecided (JUnit, markdown,
  // JSON), or removed (SARIF, host B's: an empty one would read as "no issues"), and the step summary
  // says the gate could not decide, as for any run without a verdict. A report already on stdout
  // (`-`) cannot be taken back: the exit code says it.
  if (verdict.result.passed && failed.length > 0) {
    const err = new CliError(`gate passed, but ${failed.length === 1 ? 'a report' : `${failed.length} reports`} could not be written (above), so it does not pass`, failed[0].exitCode, failed[0].hint);
    const rewrite = Object.fromEntries(written.filter((k) => !(k === 'sarif' && sarifFailed) && paths[k] !== '-').map((k) => [k, paths[k]])) as ReportPaths;
    await undecided(ctx, opts, g, rewrite, err, true, true);
    throw err;
  }
  const omitted = sarifCapLine(inputs.sarif);
  if (stepSummary !== undefined) await writeStepSummary(ctx, stepSummary, verdict, inputs);
  if (paths.sarif) {
    const repos = repositoriesOf(verdict, g.repositories);
    if (repos.length > 1) {
      ctx.warn(`the SARIF report holds issues of ${repos.length} repositories (${repos.slice(0, 3).join(', ')}${repos.length > 3 ? ', ...' : ''}); an upload to one repository would point at the wrong code: scope the gate to one repository (--repository auto, --repository-ids)`);
    }
  }
  // Decided: a reader that closes stdout while the verdict is printed (`| head -1`) cannot change it.
  ctx.settle?.(verdict.result.passed ? EXIT.OK : EXIT.GATE_FAILED);
  try {
    await printVerdict(ctx, format, verdict, annotations, setup.ci, { omitted, fullList: fullList(paths, stepSummary) });
  } catch (err) {
    // Output that could not be made (--jq's engine stopped): a failing verdict keeps its code (1), said
    // after the output's failure; a passing one ends with the output's (9). Never a pass without output.
    if (verdict.result.passed || !(err instanceof CliError) || err.exitCode !== EXIT.OUTPUT) throw err;
    ctx.warn(`${err.message}${err.hint ? `; ${err.hint}` : ''}`);
  }
  // --comment: one sticky comment on the pull request; whatever happens to it, the verdict stands.
  if (opts.comment) await postComment(ctx, toComment(verdict.result, siftedLines(verdict.sifted, verdict.result.counts.total), { link: setup.issueUrl, commit: setup.ci?.commit }));
  if (!verdict.result.passed) {
    throw new CliError(`gate failed: ${verdict.result.violations.join('; ')}`, EXIT.GATE_FAILED);
  }
}

/**
 * The gate has no verdict (`err` ends the run): the reports that can say so do, an earlier run's
 * report is removed where this run writes none (said in one line), the step summary and the comment
 * say it too.
 */
async function undecided(ctx: Context, opts: GateOptions, g: Pick<GateRun, 'setup' | 'stepSummary'>, paths: ReportPaths, err: unknown, sent = true, unpassed = false): Promise<void> {
  const code = err instanceof CliError ? err.exitCode : EXIT.INTERNAL;
  const message = scrub(err instanceof Error ? err.message : String(err), ctx.secrets());
  const removed = await writeErrorReports(paths, message, code, ctx.io.stdout).catch(() => [] /* the original error is the one to report */);
  const note = undecidedNote(removed, unpassed);
  if (note !== undefined) ctx.warn(note);
  if (g.stepSummary !== undefined) await writeStepSummaryError(g.stepSummary, message, code).catch(() => { /* as above */ });
  if (sent && opts.comment && code !== EXIT.INTERRUPTED && code !== EXIT.TERMINATED) await postComment(ctx, toCommentError(message, code, g.setup.ci?.commit));
}

/** The organization the gate sends and where it came from; none: the token's default. */
function organizationInUse(ctx: Context, body: Record<string, unknown>): { id?: string; from: string } {
  const sent = typeof body.organizationId === 'string' ? body.organizationId : undefined;
  if (sent === undefined) return { from: "the token's default" };
  const org = ctx.organization();
  return { id: sent, from: sent === org.id && org.from ? org.from : '--organization-id' };
}

/** Where every issue is listed, for the notice of the annotations left out. */
function fullList(paths: ReportPaths, stepSummary: string | undefined): string {
  const files = (['sarif', 'junit', 'jsonReport'] as const).filter((k) => paths[k] !== undefined && paths[k] !== '-').map((k) => `${kindOf(k).flag} ${paths[k]}`);
  const where = [...(stepSummary !== undefined ? ['the step summary'] : []), ...files];
  return where.length > 0 ? `${where.join(', ')}${files.length === 0 ? ' (breaking issues; -o json, --sarif or --junit list every issue)' : ''}` : '-o json, --sarif or --junit';
}

async function countIssues(
  ctx: Context,
  scope: Record<string, unknown>,
  options: Thresholds,
  setup: GateSetup,
  o: { size: number; concurrency: number; keepAll: boolean; keepSifted: boolean; fingerprints: boolean; store: SpillStore; repositoryNames?: RepositoryNames; repositories?: ScopeRepositories },
): Promise<Omit<GateVerdict, 'verified'>> {
  const op = searchOperation();
  const client = await ctx.client();
  allowListeners(ctx.signal, o.concurrency);
  // No --optimize-for-size here (listings set it, src/listing/heap.ts): the gate keeps the issues its
  // reports list, and that flag's frequent full collections mark them again and again: at 100,000
  // issues 1.6 s instead of 1.1 s, with --sarif 3.8-4.5 s instead of 2.4 s, for ~20 MB less RSS.
  const slim = o.fingerprints ? slimIssue : slimmer(false);
  const tally = createTally({ ...options, keep: o.keepAll ? 'all' : 'breaking', slim, store: o.store });
  const sieve = createSieve(tally, { ...setup.sieve, cutoffs: options.cutoffs, keep: o.keepSifted, slim });
  const buffers = new BufferPool(o.concurrency + 2);
  const pager = new Pager({
    what: 'gate',
    pagination: op.pagination!,
    // getCounts: the spec's search answers carry categoryCounts only when asked (the sandbox too):
    // without them a change while reading that keeps totalCount and totalCountAllCategories (an open
    // issue patched, a processing one opened) is not seen (page-counts.ts).
    body: gateSearchBody(scope),
    pageSize: o.size,
    concurrency: o.concurrency,
    requireTotal: true,
    // More than one page and no counts beside the total on page 1: a change while reading could not be seen (exit 7).
    requireCounts: true,
    // Each page's counts and each issue's scope checked against what was asked (listing/answer-checks.ts).
    path: op.path,
    // Pages read into reused buffers and parsed when their turn comes (src/listing/page-decode.ts).
    call: (b) => client.call(op.path, b, { safe: true, raw: buffers }),
    decode: (answer) => decodePage(answer, op.pagination!.items),
    warn: (l) => ctx.warn(l),
  });
  // --new-since reads createdAt: then it must be a date-time (trust.ts).
  const dates = setup.sieve.since !== undefined;
  const progress = await ctx.progress('gate: reading open issues');
  try {
    for await (const page of pager.pages()) {
      releasePage(page.data);
      for (const item of page.items) sieve.add(asIssue(item, page.page, dates, o.repositoryNames, o.repositories));
      progress.update(`gate: fetched ${count(pager.fetched)} of ${count(pager.total ?? 0)} open issues`);
    }
  } finally {
    progress.stop();
  }
  const sifted = sieve.finish();
  const totalCount = pager.total!;
  if (sieve.seen !== totalCount) {
    // The pager already checks this; kept as the last line of defence of the fail-closed rule.
    throw new ResponseError(`gate: counted ${sieve.seen} issues but the service reported ${totalCount}`);
  }
  const narrowed = setup.baseline || setup.policy || setup.sieve.diff || setup.sieve.since !== undefined || setup.sieve.commit !== undefined;
  return { result: tally.result(), ...(narrowed ? { sifted } : {}), scope, fetched: pager.fetched, totalCount };
}

/** An item of the listing as an issue; anything that is not an object cannot be counted. */
function asIssue(item: unknown, page: number, dates: boolean, names: RepositoryNames | undefined, repositories: ScopeRepositories | undefined): IssueInput {
  if (item === null || typeof item !== 'object' || Array.isArray(item)) {
    throw new ResponseError(`gate: page ${page} holds an item that is not an issue record`, undefined, 'check the base URL; try again with --verbose');
  }
  const issue = item as IssueInput;
  if ((typeof issue.id !== 'string' || issue.id.trim() === '') && typeof issue.id !== 'number') {
    throw new ResponseError(`gate: page ${page} holds an issue without an id`, undefined, 'check the base URL; try again with --verbose');
  }
  try {
    checkIssueValues(issue, dates);
  } catch (err) {
    if (err instanceof UntrustedValueError) {
      throw new ResponseError(`gate: page ${page}: ${err.message}, so there is no verdict`, undefined, 'the service answered a value outside the API\'s definition; svc decides only on values it can check (docs/security.md)');
    }
    throw err;
  }
  if (names) checkRepositoryName(names, issue as Record<string, unknown>, page);
  if (repositories) checkIssueRepository(repositories, issue as Record<string, unknown>, page);
  return issue;
}
