/**
 * The gate's output to the CI it runs in: the step summary (host A's job summary), appended to
 * with the reports whose CI variant it is (gate/reports/registry.ts: the markdown summary), and when the gate cannot
 * decide, what they say then; and the check that a SARIF upload holds one repository.
 */
import type { Context } from '../../context.js';
import { CliError } from '../../core/errors.js';
import { EXIT } from '../../core/exit-codes.js';
import type { GateVerdict } from '../../gate/verdict.js';
import type { IssueInput } from '../../gate/tally.js';
import { REPORT_KEYS, kindOf, type ReportInputs, type ReportKind } from '../../gate/reports/registry.js';
import { appendSummary } from '../../ci/step-summary.js';
import { clipChars } from '../../gate/reports/markdown.js';

function stepSummaryKinds(): ReportKind[] {
  return REPORT_KEYS.map(kindOf).filter((k) => k.ciVariant === 'step-summary');
}

async function append(path: string, text: string): Promise<void> {
  try {
    await appendSummary(path, text);
  } catch (err) {
    const why = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    throw new CliError(`cannot append to the step summary ${path} (${why})`, EXIT.USAGE, 'check the CI step-summary variable, or give --no-ci');
  }
}

/** The step summary of the CI the gate runs in: the reports with that CI variant (the markdown summary), appended. */
export async function writeStepSummary(ctx: Context, path: string, v: GateVerdict, inputs: ReportInputs, jsonReport?: string): Promise<void> {
  // What the step summary leaves out (it is capped) is in the JSON verdict: the file written, else how to get one.
  const o = { ...inputs, fullAt: jsonReport !== undefined && jsonReport !== '-' ? `--json-report ${jsonReport}` : '-o json or --json-report FILE' };
  // Written because the CI asked for it, not a flag: a file that cannot be appended to is said, and
  // the verdict (the exit code) stands.
  try {
    for (const kind of stepSummaryKinds()) await append(path, (kind.ciText ?? kind.text)(v, o));
    ctx.note(`added the gate summary to the step summary ${path}`);
  } catch (err) {
    ctx.warn((err as Error).message);
  }
}

/** Longest error message the step summary gets, in characters. */
const MESSAGE_CHARS = 4000;

export async function writeStepSummaryError(path: string, message: string, exitCode: number): Promise<void> {
  // The message can quote the service: cut, as the step summary of a verdict is (registry.ts).
  for (const kind of stepSummaryKinds()) if (kind.undecided) await append(path, kind.undecided(clipChars(message, MESSAGE_CHARS), exitCode));
}

/**
 * One SARIF upload goes to one repository: results of several repositories would point at files of
 * the wrong code. Says so (on stderr) when the counted issues span more than one.
 */
export function repositoriesOf(v: GateVerdict, counted?: ReadonlySet<string>): string[] {
  // `counted`: the repositories of the counted issues, noted as they were kept (run.ts, spill.ts), so that
  // they need not be read back.
  const names = new Set<string>(counted);
  const lists = [...(counted ? [] : [v.result.issues]), v.sifted?.unchanged ?? [], v.sifted?.suppressed ?? []];
  for (const list of lists) for (const i of list) {
    const name = repositoryOf(i);
    if (name !== undefined) names.add(name);
  }
  return [...names].sort();
}

/** The repository an issue names (its name, else its id). */
export function repositoryOf(i: IssueInput): string | undefined {
  return typeof i.repositoryName === 'string' && i.repositoryName !== '' ? i.repositoryName : typeof i.repositoryId === 'string' ? i.repositoryId : undefined;
}
