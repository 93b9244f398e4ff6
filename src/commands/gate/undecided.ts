/**
 * A gate run that ends without a verdict (an error, Ctrl-C, a pass whose reports could not all be
 * written): the reports that can say so do (JUnit, markdown, JSON), an earlier run's report is removed
 * where this run writes none (SARIF, host B's: an empty one would read as "no issues"), and the step
 * summary say it too; no pull request comment is posted (there is no verdict to post).
 */
import type { Context } from '../../context.js';
import { CliError } from '../../core/errors.js';
import { EXIT } from '../../core/exit-codes.js';
import { scrub } from '../../http/redact.js';
import type { ReportPaths } from '../../gate/reports/registry.js';
import { writeStepSummaryError } from './ci-reports.js';
import type { GateOptions } from './options.js';
import type { GateSetup } from './setup.js';
import { undecidedNotes, writeErrorReports } from './write-reports.js';

/**
 * The gate has no verdict (`err` ends the run): the reports that can say so do, an earlier run's
 * report is removed where this run writes none (said in one line), the step summary says it too.
 * `wrote`: the paths among `paths` this run wrote before it lost its verdict (removed ones are said
 * as this run's; `unpassed`: they said "passed").
 */
export async function undecided(ctx: Context, opts: GateOptions, g: { setup: GateSetup; stepSummary: string | undefined }, paths: ReportPaths, err: unknown, sent = true, wrote: readonly string[] = [], unpassed = false): Promise<void> {
  const code = err instanceof CliError ? err.exitCode : EXIT.INTERNAL;
  const message = scrub(err instanceof Error ? err.message : String(err), ctx.secrets());
  const removed = await writeErrorReports(paths, message, code, ctx.io.stdout).catch(() => [] /* the original error is the one to report */);
  for (const note of undecidedNotes(removed, wrote, unpassed)) ctx.warn(note);
  if (g.stepSummary !== undefined) await writeStepSummaryError(g.stepSummary, message, code).catch(() => { /* as above */ });
  // No verdict, nothing to say about the change: no comment is posted (nor the error, which may name
  // the service's address, on a pull request anyone may read). svc's earlier comment names the commit it judged.
  if (sent && opts.comment && code !== EXIT.INTERRUPTED && code !== EXIT.TERMINATED) ctx.note('svc gate: --comment: no verdict, so no comment posted (an earlier comment of svc\'s shows the commit it judged)');
}

