/**
 * The gate's report formats, one row each: the flag, the text of a decided gate, the text of an
 * undecided one, whether the report lists every counted issue (the tally then keeps them all) and
 * the issues the baseline and the policy took out, and its CI variant (the step summary). The command's
 * options (command.ts, options.ts), the checks of the paths (run.ts), the writing (decided or not)
 * and what the tally keeps all come from this table: a new format is one row here plus its pure
 * writer in src/gate/reports/.
 */
import type { Writable } from 'node:stream';
import { CliError } from '../../core/errors.js';
import { EXIT, type ExitCode } from '../../core/exit-codes.js';
import { removeStaleReport, tempPathFor, writeFileAtomic, writeModeFor, writeReport } from '../../output/write-file.js';
import { rename, unlink } from 'node:fs/promises';
import { organizationText, type GateVerdict } from './decision.js';
import { siftedLines } from '../../gate/sifted-text.js';
import { toSarif, type SarifResult } from '../../gate/reports/sarif.js';
import { junitChunks, toJunit, toJunitError } from '../../gate/reports/junit.js';
import { toMarkdown, toMarkdownError } from '../../gate/reports/markdown.js';
import { toHostBSast } from '../../gate/reports/hostb-sast.js';
import { toCodeQuality } from '../../gate/reports/code-quality.js';
import { verdictData } from './verdict-data.js';
import { LazyList, jsonChunks } from '../../output/json-stream.js';
import { capSarif, gzipFileSize, sarifCapLine, type SarifCap, type SarifSink } from './sarif-cap.js';
import type { SarifLimits } from '../../gate/caps.js';

/** What a writer may use beyond the verdict. */
export interface ReportInputs {
  version: string;
  /** Wall-clock ms when the gate started and when its reports are written. */
  startedAt: number;
  endedAt: number;
  /** Link to an issue from its id (--issue-url / SVC_ISSUE_URL). */
  issueUrl?: (id: string) => string;
  /** The SARIF report within the code-scanning limits (sarif-cap.ts); none: every result. */
  sarif?: SarifCap;
}

export interface ReportKind {
  /** The option's flag; its commander attribute name is the row's key (a test checks they agree). */
  flag: string;
  /** The option's help. */
  description: string;
  /** The text of the report of a decided gate. */
  text(v: GateVerdict, o: ReportInputs): string;
  /**
   * The same text in pieces, made as they are written (output/json-stream.ts), so that a report of
   * tens of thousands of issues is never whole in memory; what the gate writes when there is one.
   */
  chunks?(v: GateVerdict, o: ReportInputs): Iterable<string>;
  /** What is said on stderr once it is written. */
  wrote(v: GateVerdict, path: string, o?: ReportInputs): string;
  /** The text when the gate cannot decide; none: not written (an empty report would read as "no issues"). */
  undecided?(message: string, exitCode: number): string;
  /** It lists every counted issue (not only the breaking ones): the tally keeps them all. */
  everyIssue: boolean;
  /** It lists the issues the baseline and the policy took out of the count: the sieve keeps them. */
  siftedIssues: boolean;
  /** Its CI variant: 'step-summary', also appended to the step summary of the CI the gate runs in (ci-reports.ts). */
  ciVariant?: 'step-summary';
}

const json = (value: unknown, indent?: number) => JSON.stringify(value, null, indent) + '\n';
/** json(value, indent) in pieces: the same bytes. */
function* jsonPieces(value: unknown, indent?: number): Generator<string> {
  yield* jsonChunks(value, indent);
  yield '\n';
}
/** A list made as it is written (json-stream.ts), where a writer takes one as an array. */
const lazyList = <T>(make: () => Iterable<T>) => new LazyList(make) as unknown as T[];
const sarifOptions = (v: GateVerdict, o: ReportInputs, omitted?: { results: number; reason: string }) => ({ toolName: 'svc', toolVersion: o.version, baseline: !!v.sifted?.baseline, unchanged: v.sifted?.unchanged, suppressed: v.sifted?.suppressed, omitted });
/** The SARIF report's pieces for a verdict and what it leaves out (sarif-cap.ts measures them). */
export const sarifChunks = (v: GateVerdict, o: ReportInputs, omitted?: { results: number; reason: string }) =>
  jsonPieces(toSarif(v.result, { ...sarifOptions(v, o, omitted), lazyList: lazyList<SarifResult> }));
const sarifResults = (v: GateVerdict) => counted(v) + (v.sifted?.unchanged.length ?? 0) + (v.sifted?.suppressed.length ?? 0);
const capped = (o: ReportInputs) => (o.sarif && o.sarif.omitted > 0 ? { results: o.sarif.omitted, reason: o.sarif.reason } : undefined);
const counted = (v: GateVerdict) => v.result.issues.length;

/** The report formats, in the order of `svc gate --help` and of writing. */
export const REPORT_KINDS = {
  sarif: {
    flag: '--sarif',
    description: 'Write a SARIF 2.1.0 report of every counted issue (the most severe 25,000 within code scanning limits)',
    // Within the code-scanning limits: the capped verdict (o.sarif, sarif-cap.ts) when there is one.
    text: (v, o) => json(toSarif((o.sarif?.verdict ?? v).result, sarifOptions(o.sarif?.verdict ?? v, o, capped(o)))),
    chunks: (v, o) => sarifChunks(o.sarif?.verdict ?? v, o, capped(o)),
    wrote: (v, path, o) => `wrote the SARIF report ${path} (${sarifResults(o?.sarif?.verdict ?? v)} results${o?.sarif?.omitted ? `, ${o.sarif.omitted} left out` : ''})`,
    everyIssue: true,
    siftedIssues: true,
  },
  junit: {
    flag: '--junit',
    description: 'Write a JUnit XML report (a test case per issue, failures for breaking ones)',
    text: (v) => toJunit(v.result),
    chunks: (v) => junitChunks(v.result),
    wrote: (_v, path) => `wrote the JUnit report ${path}`,
    undecided: (message) => toJunitError(message),
    everyIssue: true,
    siftedIssues: false,
  },
  markdown: {
    flag: '--markdown',
    description: "Write a markdown summary (e.g. the CI's step-summary file)",
    text: (v, o) => toMarkdown(v.result, [...(v.organization ? [organizationText(v.organization)] : []), ...siftedLines(v.sifted, v.result.counts.total), ...sarifCapLine(o.sarif)]),
    wrote: (_v, path) => `wrote the markdown summary ${path}`,
    undecided: (message, exitCode) => toMarkdownError(message, exitCode),
    everyIssue: false,
    siftedIssues: false,
    ciVariant: 'step-summary',
  },
  jsonReport: {
    flag: '--json-report',
    description: 'Write the verdict as JSON (what -o json prints) to a file, beside the summary',
    text: (v) => json(verdictData(v), 2),
    chunks: (v) => jsonPieces(verdictData(v, true), 2),
    wrote: (_v, path) => `wrote the JSON verdict ${path}`,
    undecided: (message, exitCode) => json({ passed: false, decided: false, exitCode, error: message }, 2),
    // -o json and --json-report list every counted issue (a later --baseline reads them back).
    everyIssue: true,
    siftedIssues: true,
  },
  hostbSast: {
    flag: '--hostb-sast',
    description: "Write host B's SAST report (security report schema 15.x) of every counted issue",
    text: (v, o) => json(toHostBSast(v.result, { toolVersion: o.version, startedAt: o.startedAt, endedAt: o.endedAt, issueUrl: o.issueUrl })),
    chunks: (v, o) => jsonPieces(toHostBSast(v.result, { toolVersion: o.version, startedAt: o.startedAt, endedAt: o.endedAt, issueUrl: o.issueUrl, lazyList })),
    wrote: (v, path) => `wrote host B's SAST report ${path} (${counted(v)} vulnerabilities)`,
    everyIssue: true,
    siftedIssues: false,
  },
  codeQuality: {
    flag: '--code-quality',
    description: "Write host B's Code Quality report (JSON) of every counted issue",
    text: (v) => json(toCodeQuality(v.result)),
    chunks: (v) => jsonPieces(toCodeQuality(v.result, { lazyList })),
    wrote: (v, path) => `wrote the Code Quality report ${path} (${counted(v)} entries)`,
    everyIssue: true,
    siftedIssues: false,
  },
} as const satisfies Record<string, ReportKind>;

export type ReportKey = keyof typeof REPORT_KINDS;
/** A file per report format given: as typed (GateOptions.reports), then resolved (run.ts). */
export type ReportPaths = Partial<Record<ReportKey, string>>;

export const REPORT_KEYS = Object.keys(REPORT_KINDS) as ReportKey[];

export const kindOf = (key: ReportKey): ReportKind => REPORT_KINDS[key];

/** What the tally and the sieve keep for the reports asked for. */
export function reportsKeep(paths: ReportPaths): { everyIssue: boolean; siftedIssues: boolean } {
  const given = REPORT_KEYS.filter((k) => paths[k] !== undefined).map(kindOf);
  return { everyIssue: given.some((k) => k.everyIssue), siftedIssues: given.some((k) => k.siftedIssues) };
}

/** Writes one report whole or not at all (`-`: stdout); a failure names the flag and says whether it is the disk (9) or the path (2). */
async function atomically(key: ReportKey, path: string, text: () => string | Iterable<string>, stdout?: Writable, signal?: AbortSignal): Promise<void> {
  await writing(key, path, () => writeReport(path, text(), stdout, signal));
}

/**
 * One report could not be written (the disk, the path): the others are still written, and a failing
 * verdict keeps its code (run.ts). Its earlier file, if any, is gone (removeStaleReport).
 */
export class ReportWriteError extends CliError {
  constructor(message: string, exitCode: ExitCode, readonly removed: boolean) {
    super(`${message}${removed ? '; removed the earlier file there' : ''}`, exitCode, 'check the path and free disk space');
  }
}

async function writing<T>(key: ReportKey, path: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    // Ctrl-C while writing (130/143), or the kept issues' temporary file failing (9, spill.ts): the
    // report is not written (its temp file removed) and that error, with its own code, ends the run.
    if (err instanceof CliError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    const why = code ?? (err as Error).message;
    // A full or failing disk is an output failure (9); a wrong path (missing folder, a directory) is usage (2).
    const output = code !== undefined && ['ENOSPC', 'EDQUOT', 'EIO', 'EROFS', 'EFBIG'].includes(code);
    // The write left what was there: an earlier run's report, which must not pass for this run's.
    const removed = await removeStaleReport(path);
    throw new ReportWriteError(`cannot write the ${kindOf(key).flag} report to ${path} (${why})`, output ? EXIT.OUTPUT : EXIT.USAGE, removed);
  }
}

/**
 * The SARIF report within code scanning's limits (sarif-cap.ts), written: to a regular file its text is
 * made once, counted as it is written to a temporary file beside the report, compressed to measure only
 * when it is over the limit uncompressed, and renamed over the path when it fits; to stdout or a FIFO it
 * is measured first, then written. What it left out is returned for the other reports and the summaries.
 */
export async function writeSarifReport(path: string, v: GateVerdict, o: ReportInputs, stdout?: Writable, signal?: AbortSignal, limits?: SarifLimits): Promise<SarifCap> {
  const write = (verdict: GateVerdict, omitted: { results: number; reason: string }) => sarifChunks(verdict, o, omitted);
  return writing('sarif', path, async () => {
    const { mode, target } = await writeModeFor(path);
    if (mode === 'atomic') return capSarif(v, write, limits, fileSink(target, signal));
    const cap = await capSarif(v, write, limits);
    await writeReport(path, write(cap.verdict, { results: cap.omitted, reason: cap.reason }), stdout, signal);
    return cap;
  });
}

/** A temporary file beside the report: kept by renaming it over the report, dropped by removing it. */
function fileSink(target: string, signal?: AbortSignal): SarifSink {
  return {
    async put(chunks) {
      const temp = tempPathFor(target);
      await writeFileAtomic(temp, chunks, undefined, signal);
      return {
        gzipSize: () => gzipFileSize(temp),
        keep: () => rename(temp, target),
        drop: () => unlink(temp).catch(() => undefined),
      };
    },
  };
}

/**
 * Every report asked for, in table order, each said on stderr once written (those in `done` were
 * written already, and are only said). A report that cannot be written (ReportWriteError) does not
 * stop the others: the failures are returned, in order. Anything else (Ctrl-C, the kept issues' file
 * failing) ends the writing at once; `written` then holds the keys written.
 */
export async function writeReports(paths: ReportPaths, v: GateVerdict, o: ReportInputs & { stdout: Writable; note: (line: string) => void; signal?: AbortSignal }, done: readonly ReportKey[] = [], written: ReportKey[] = []): Promise<ReportWriteError[]> {
  const failed: ReportWriteError[] = [];
  for (const key of REPORT_KEYS) {
    const path = paths[key];
    if (path === undefined) continue;
    const kind = kindOf(key);
    if (!done.includes(key)) {
      try {
        await atomically(key, path, () => (kind.chunks ? kind.chunks(v, o) : kind.text(v, o)), o.stdout, o.signal);
      } catch (err) {
        if (!(err instanceof ReportWriteError)) throw err;
        failed.push(err);
        continue;
      }
    }
    written.push(key);
    o.note(kind.wrote(v, path, o));
  }
  return failed;
}

/**
 * When the gate cannot decide: the formats that can say so do; the others are not written, and an
 * earlier run's file at their paths is removed (an old SARIF report would be uploaded as this run's:
 * removeStaleReport says what is safe to remove), as is one that could not be rewritten. Returns the
 * paths removed, for one line on stderr (undecidedNote).
 */
export async function writeErrorReports(paths: ReportPaths, message: string, exitCode: number, stdout?: Writable): Promise<string[]> {
  const removed: string[] = [];
  for (const key of REPORT_KEYS) {
    const path = paths[key];
    if (path === undefined) continue;
    const undecided = kindOf(key).undecided;
    try {
      if (undecided) {
        await atomically(key, path, () => undecided(message, exitCode), stdout);
        continue;
      }
    } catch (err) {
      // Not rewritten (the disk, the path): writing() removed what was there.
      if (err instanceof ReportWriteError && err.removed) removed.push(path);
    }
    if (await removeStaleReport(path)) removed.push(path);
  }
  return removed;
}

/** The one stderr line of the reports an undecided run removed; none: nothing was removed. */
export function undecidedNote(removed: readonly string[], unpassed = false): string | undefined {
  if (removed.length === 0) return undefined;
  if (unpassed) return `removed ${removed.join(', ')}: written as a pass before another report failed, and the run does not pass`;
  return `removed ${removed.join(', ')}: ${removed.length === 1 ? 'a report' : 'reports'} of an earlier run, which this run could not replace (it has no verdict)`;
}
