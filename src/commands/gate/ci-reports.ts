/**
 * The gate's CI outputs beyond the generic reports: host B's SAST and Code Quality reports, and
 * the markdown summary appended to the CI's step summary (host A's HOSTA_STEP_SUMMARY). The two
 * host B reports are written whole (atomically) or not at all; when the gate cannot decide, they
 * are not written (an empty report would read as "no vulnerabilities"), and the step summary says
 * the gate could not decide.
 */
import type { Context } from '../../context.js';
import { wallClock } from '../../host.js';
import { CliError } from '../../errors.js';
import { EXIT } from '../../exit-codes.js';
import type { GateVerdict } from './decision.js';
import { siftedLines } from '../../gate/sifted-text.js';
import { atomically } from './summary.js';
import { appendSummary } from '../../ci/step-summary.js';
import { toHostBSast } from '../../gate/reports/hostb-sast.js';
import { toCodeQuality } from '../../gate/reports/code-quality.js';
import { toMarkdown, toMarkdownError } from '../../gate/reports/markdown.js';

export interface CiReportPaths {
  hostbSast?: string;
  codeQuality?: string;
  /** The CI's step-summary file: appended to, never replaced. */
  stepSummary?: string;
}

async function append(path: string, text: string): Promise<void> {
  try {
    await appendSummary(path, text);
  } catch (err) {
    const why = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    throw new CliError(`cannot append to the step summary ${path} (${why})`, EXIT.USAGE, 'check the CI step-summary variable, or give --no-ci');
  }
}

export async function writeCiReports(ctx: Context, paths: CiReportPaths, v: GateVerdict, o: { startedAt: number; issueUrl?: (id: string) => string }): Promise<void> {
  const result = v.result;
  if (paths.hostbSast) {
    const report = toHostBSast(result, { toolVersion: ctx.version, startedAt: o.startedAt, endedAt: wallClock(ctx), issueUrl: o.issueUrl });
    await atomically('hostbSast', paths.hostbSast, () => JSON.stringify(report) + '\n');
    ctx.note(`wrote host B's SAST report ${paths.hostbSast} (${result.issues.length} vulnerabilities)`);
  }
  if (paths.codeQuality) {
    await atomically('codeQuality', paths.codeQuality, () => JSON.stringify(toCodeQuality(result)) + '\n');
    ctx.note(`wrote the Code Quality report ${paths.codeQuality} (${result.issues.length} entries)`);
  }
  if (paths.stepSummary) {
    // Written because the CI asked for it, not a flag: a file that cannot be appended to is said, and
    // the verdict (the exit code) stands.
    try {
      await append(paths.stepSummary, toMarkdown(result, siftedLines(v.sifted, result.counts.total)));
      ctx.note(`added the gate summary to the step summary ${paths.stepSummary}`);
    } catch (err) {
      ctx.warn((err as Error).message);
    }
  }
}

export async function writeCiErrorReports(paths: CiReportPaths, message: string, exitCode: number): Promise<void> {
  if (!paths.stepSummary) return;
  await append(paths.stepSummary, toMarkdownError(message, exitCode));
}

/**
 * One SARIF upload goes to one repository: results of several repositories would point at files of
 * the wrong code. Says so (on stderr) when the counted issues span more than one.
 */
export function repositoriesOf(v: GateVerdict): string[] {
  const names = new Set<string>();
  const all = [...v.result.issues, ...(v.sifted?.unchanged ?? []), ...(v.sifted?.suppressed ?? [])];
  for (const i of all) {
    const name = typeof i.repositoryName === 'string' && i.repositoryName !== '' ? i.repositoryName : typeof i.repositoryId === 'string' ? i.repositoryId : undefined;
    if (name !== undefined) names.add(name);
  }
  return [...names].sort();
}
