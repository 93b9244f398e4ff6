/**
 * The run step of `svc gate`, its sequence: check everything the user can get wrong, build the scope,
 * verify it, count every open issue in it (count.ts), decide (gate/tally.ts against gate/policy.ts),
 * write the reports (write-reports.ts), print the verdict (summary.ts), comment.
 *
 * Fail closed: exit 0 only when every page was read, the number read equals totalCount, every
 * threshold held, and no answer left a doubt that could hide a breaking issue (answers/checks.ts,
 * action `stop`: exit 7 naming it). A proven FAIL stands: a breaking issue read in scope is exit 1,
 * even when a later page could not be read (the summary says the listing was incomplete). Anything
 * else that stops the count (401 -> 3, network/5xx -> 6, an incomplete or changing listing -> 7,
 * Ctrl-C -> 130) ends with that code; the reports then say the gate could not decide (undecided.ts). A report that cannot be written does not change a failing verdict's code (1);
 * a passing verdict is then not a pass (9, or 2 for a path), and the reports it wrote and the step
 * summary are rewritten (or removed) as those of a run without a verdict.
 */
import { resolve } from 'node:path';
import type { Context } from '../../context.js';
import { wallClock } from '../../core/host.js';
import { CliError, UsageError } from '../../core/errors.js';
import { EXIT } from '../../core/exit-codes.js';
import type { IssueInput } from '../../gate/tally.js';
import { resolveThresholds, type Thresholds } from '../../gate/policy.js';
import type { GateVerdict } from '../../gate/verdict.js';
import { reportsKeep, type ReportInputs, type ReportKey, type ReportPaths } from '../../gate/reports/registry.js';
import { verdictComment } from '../../gate/reports/comment.js';
import { sarifCapLine } from '../../gate/caps.js';
import { askedFormat } from '../../output/data-format.js';
import type { Format } from '../../output/formats.js';
import { checkOutput } from '../../output/respond.js';
import { printDryRun } from '../../http/dry-run.js';
import { buildScope, organizationInUse, searchOperation } from './scope-flags.js';
import { verifyScope } from './scope.js';
import { countForCommit } from './commit-count.js';
import { gateSearchBody } from './count.js';
import { printVerdict } from './summary.js';
import { gateSetup, resolveRepository, type GateSetup } from './setup.js';
import { repositoriesOf, repositoryOf, writeStepSummary } from './ci-reports.js';
import type { GateOptions } from './options.js';
import { postComment } from './post-comment.js';
import { checkOutputsDistinct, checkOutputsSpareInputs, sameFile } from '../../output/file-clash.js';
import { fullList, inputFiles, outputFiles, reportPaths } from './report-paths.js';
import { spillStore, type SpillStore } from './spill.js';
import { ReportWriteError, writeDecidedReports } from './write-reports.js';
import { undecided } from './undecided.js';
import { countsScope, doubtData, noPass, type CountsSetting } from './no-pass.js';

/** The run step of `svc gate`, on options parsed by parseGateOptions (options.ts). */
export async function runGate(ctx: Context, opts: GateOptions): Promise<void> {
  // The gate decides on what it can prove (answers/checks.ts: each doubt's action in the gate).
  ctx.doubts.use = 'gate';
  // Everything the user can get wrong is checked before the first request.
  const startedAt = wallClock(ctx);
  for (const note of opts.renamed ?? []) ctx.warn(note);
  const setup = await gateSetup(ctx, opts);
  const options = resolveThresholds(opts, setup.policy);
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
  if (stepSummary !== undefined && paths.markdown !== undefined && paths.markdown !== '-' && await sameFile(paths.markdown, stepSummary)) delete paths.markdown;
  // No output of the run is one of its inputs, nor another output by a link's name (file-clash.ts):
  // checked before anything is sent or written.
  const outputs = outputFiles(paths, opts.reports, stepSummary);
  await checkOutputsDistinct(outputs);
  await checkOutputsSpareInputs(outputs, inputFiles(ctx, opts));
  // From here on the report paths are known to spare the inputs: a run that ends without a verdict
  // (a usage error found now, exit 2, too) leaves no earlier run's report at them (undecided.ts).
  let scope: { scope: Record<string, unknown>; built: Record<string, unknown> };
  try {
    scope = await buildScope(ctx, opts, setup.ci);
  } catch (err) {
    // Nothing was sent, and nothing is: no comment (--dry-run writes nothing at all).
    if (!ctx.globals.dryRun) await undecided(ctx, opts, { setup, stepSummary }, paths, err, false);
    throw err;
  }
  if (ctx.globals.dryRun) {
    printDryRun(ctx, searchOperation().path, { ...gateSearchBody(scope.scope), page: 1, pageSize: opts.pageSize });
    return;
  }
  // The kept issues, past a few thousand, in a temporary file (spill.ts): closed and removed at the end.
  // With --sarif, the repositories of the counted issues are noted as they are kept (the warning below).
  const repositories = new Set<string>();
  const seen = paths.sarif ? (issue: IssueInput) => { const name = repositoryOf(issue); if (name !== undefined) repositories.add(name); } : undefined;
  const stores = [spillStore({ ...opts.spill, seen })];
  // A second count starts afresh: the repositories seen are those of the issues it keeps.
  const freshStore = () => { repositories.clear(); stores.push(spillStore({ ...opts.spill, seen })); return stores[stores.length - 1]; };
  try {
    await decideAndReport(ctx, opts, { setup, options, format, annotations, paths, stepSummary, ...scope, startedAt, store: stores[0], freshStore, repositories, counts: countsScope(opts, setup) });
  } finally {
    for (const store of stores) store.close();
  }
}

interface GateRun {
  setup: GateSetup;
  options: Thresholds;
  format: Format;
  annotations: boolean;
  paths: ReportPaths;
  stepSummary: string | undefined;
  scope: Record<string, unknown>;
  built: Record<string, unknown>;
  startedAt: number;
  store: SpillStore;
  /** Another store, for a second count (commit-count.ts), closed with the first. */
  freshStore: () => SpillStore;
  repositories: ReadonlySet<string>;
  /** What the service's categoryCounts are taken to count, and where that came from. */
  counts: CountsSetting;
}

/** Verifies the scope, counts, decides, writes the reports and prints the verdict (runGate's second half). */
async function decideAndReport(ctx: Context, opts: GateOptions, g: GateRun): Promise<void> {
  const { setup, format, annotations, paths, stepSummary, scope } = g;
  let verdict: GateVerdict;
  // -o json lists every counted issue (a later --baseline reads them back), as some reports do (registry.ts).
  const asData = format === 'json' || format === 'ndjson';
  const keep = reportsKeep(paths);
  const keepAll = keep.everyIssue || annotations || asData || opts.comment;
  try {
    const repository = opts.repository !== undefined ? await resolveRepository(ctx, opts.repository, setup.ci, g.built.organizationId) : undefined;
    if (repository) scope.repositoryIds = [repository.id];
    // Every id of the scope exists and its scan has finished, or there is no verdict (4, 8, 1); a
    // repository found by its URL has that URL in its record (7).
    const { verified, repositoryNames, repositories } = await verifyScope(ctx, scope, { wait: typeof scope.scanId === 'string' ? opts.wait : undefined, ...(repository?.url !== undefined ? { resolvedUrl: repository.url } : {}) });
    // --commit: what the service's scans of that commit found (a pull request's head: its PR scan),
    // waited for with --wait (commit-count.ts). Fingerprints only where something shows them: reports
    // that list every issue, -o json/ndjson/csv.
    const counted = await countForCommit(ctx, scope, g.options, setup, { size: opts.pageSize, concurrency: opts.concurrency, keepAll, keepSifted: keep.siftedIssues || asData, fingerprints: keepAll || format !== 'table', store: g.store, repositoryNames, repositories, countsWide: g.counts.scope === 'wide' }, verified, { wait: opts.wait, repositories, freshStore: g.freshStore });
    verdict = { ...counted, verified, organization: organizationInUse(ctx, g.built), categoryCounts: g.counts, doubts: doubtData(ctx) };
    // A doubt that could hide a breaking issue stops a PASS (exit 7 naming it); a proven FAIL stands.
    const stops = ctx.doubts.stopping();
    if (verdict.result.passed && stops.length > 0) throw noPass(ctx, stops, g.counts);
  } catch (err) {
    await undecided(ctx, opts, g, paths, err);
    throw err;
  }
  const inputs: ReportInputs = { version: ctx.version, startedAt: g.startedAt, endedAt: wallClock(ctx), issueUrl: setup.issueUrl };
  // A report that cannot be written is said and the others are written: a failing verdict keeps its
  // code (1), a passing one ends with the write's (9, or 2 for a path) and no summary (below).
  const written: ReportKey[] = [];
  let failed: ReportWriteError[];
  let sarifFailed: boolean;
  try {
    ({ failed, sarifFailed } = await writeDecidedReports(ctx, paths, verdict, inputs, written));
  } catch (err) {
    // Ctrl-C, or the kept issues' file failing, while the reports were written: the run has no
    // verdict, so every report says so, those written already too: one written before the signal
    // said the verdict, and a SARIF, SAST or Code Quality report it left would be uploaded as
    // this run's (it is removed, as an earlier run's is). A report already on stdout (`-`) cannot be
    // taken back: the exit code says it.
    const onStdout = (k: string) => written.includes(k as ReportKey) && paths[k as ReportKey] === '-';
    const rest = Object.fromEntries(Object.entries(paths).filter(([k]) => !onStdout(k))) as ReportPaths;
    await undecided(ctx, opts, g, rest, err, true, written.filter((k) => !onStdout(k)).map((k) => paths[k]!));
    throw err;
  }
  // A pass whose reports are not all written is not a pass: nothing this run wrote may say "passed".
  // The reports written before (or after) the failing one are rewritten as undecided, or removed, and
  // the step summary says the gate could not decide. A report already on stdout (`-`) cannot be taken
  // back: the exit code says it.
  if (verdict.result.passed && failed.length > 0) {
    const err = new CliError(`gate passed, but ${failed.length === 1 ? 'a report' : `${failed.length} reports`} could not be written (above), so it does not pass`, failed[0].exitCode, failed[0].hint);
    const rewrite = Object.fromEntries(written.filter((k) => !(k === 'sarif' && sarifFailed) && paths[k] !== '-').map((k) => [k, paths[k]])) as ReportPaths;
    await undecided(ctx, opts, g, rewrite, err, true, Object.values(rewrite), true);
    throw err;
  }
  if (stepSummary !== undefined) await writeStepSummary(ctx, stepSummary, verdict, inputs, written.includes('jsonReport') ? paths.jsonReport : undefined);
  if (written.includes('sarif') && !sarifFailed) {
    const repos = repositoriesOf(verdict, g.repositories);
    if (repos.length > 1) {
      ctx.warn(`the SARIF report holds issues of ${repos.length} repositories (${repos.slice(0, 3).join(', ')}${repos.length > 3 ? ', ...' : ''}); an upload to one repository would point at the wrong code: scope the gate to one repository (--repository auto, --repository-ids)`);
    }
  }
  // Decided: a reader that closes stdout while the verdict is printed (`| head -1`) cannot change it.
  ctx.settle?.(verdict.result.passed ? EXIT.OK : EXIT.GATE_FAILED);
  try {
    await printVerdict(ctx, format, verdict, annotations, setup.ci, { omitted: sarifCapLine(inputs.sarif), fullList: fullList(written.includes('sarif') && !sarifFailed ? paths : { ...paths, sarif: undefined }, stepSummary) });
  } catch (err) {
    // Output that could not be made (--jq's engine stopped): a failing verdict keeps its code (1), said
    // after the output's failure; a passing one ends with the output's (9). Never a pass without output.
    if (verdict.result.passed || !(err instanceof CliError) || err.exitCode !== EXIT.OUTPUT) throw err;
    ctx.warn(`${err.message}${err.hint ? `; ${err.hint}` : ''}`);
  }
  // --comment: one sticky comment on the pull request; whatever happens to it, the verdict stands.
  // The commit judged (--commit: a merge request's head), not the merge commit a merged results pipeline
  // builds; what the verdict was made on (an incomplete listing) as the step summary says it.
  if (opts.comment) await postComment(ctx, verdictComment(verdict, { link: setup.issueUrl, commit: setup.sieve.commit ?? setup.ci?.headCommit ?? setup.ci?.commit }));
  if (!verdict.result.passed) {
    const partly = verdict.incomplete !== undefined ? ` (on the issues read: the listing was incomplete, ${verdict.incomplete})` : '';
    throw new CliError(`gate failed: ${verdict.result.violations.join('; ')}${partly}`, EXIT.GATE_FAILED);
  }
}
