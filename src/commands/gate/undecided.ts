/**
 * A gate run that ends without a verdict (an error, Ctrl-C, a pass whose reports could not all be
 * written): the reports that can say so do (JUnit, markdown, JSON), an earlier run's report is removed
 * where this run writes none (SARIF, host B's: an empty one would read as "no issues"), and the step
 * summary and the pull request comment say it too.
 */
import type { Context } from '../../context.js';
import { CliError } from '../../core/errors.js';
import { EXIT } from '../../core/exit-codes.js';
import { scrub } from '../../http/redact.js';
import { toCommentError } from '../../gate/reports/comment.js';
import type { ReportPaths } from '../../gate/reports/registry.js';
import { writeStepSummaryError } from './ci-reports.js';
import type { GateOptions } from './options.js';
import { postComment } from './post-comment.js';
import type { GateSetup } from './setup.js';
import { undecidedNote, writeErrorReports } from './write-reports.js';

/**
 * The gate has no verdict (`err` ends the run): the reports that can say so do, an earlier run's
 * report is removed where this run writes none (said in one line), the step summary and the comment
 * say it too.
 */
export async function undecided(ctx: Context, opts: GateOptions, g: { setup: GateSetup; stepSummary: string | undefined }, paths: ReportPaths, err: unknown, sent = true, unpassed = false): Promise<void> {
  const code = err instanceof CliError ? err.exitCode : EXIT.INTERNAL;
  const message = scrub(err instanceof Error ? err.message : String(err), ctx.secrets());
  const removed = await writeErrorReports(paths, message, code, ctx.io.stdout).catch(() => [] /* the original error is the one to report */);
  const note = undecidedNote(removed, unpassed);
  if (note !== undefined) ctx.warn(note);
  if (g.stepSummary !== undefined) await writeStepSummaryError(g.stepSummary, message, code).catch(() => { /* as above */ });
  if (sent && opts.comment && code !== EXIT.INTERRUPTED && code !== EXIT.TERMINATED) await postComment(ctx, toCommentError(message, code, g.setup.ci?.commit));
}

