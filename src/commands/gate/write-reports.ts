/**
 * Writing the gate's reports (the formats are rows of src/gate/reports/registry.ts): each whole or not
 * at all, the SARIF report within code scanning's limits (sarif-cap.ts), and when the gate has no
 * verdict, the reports that can say so (the others removed: an empty one would read as "no issues").
 */
import type { Writable } from 'node:stream';
import type { Context } from '../../context.js';
import { rename, unlink } from 'node:fs/promises';
import { CliError } from '../../core/errors.js';
import { EXIT, type ExitCode } from '../../core/exit-codes.js';
import { removeStaleReport, tempPathFor, writeFileAtomic, writeModeFor, writeReport } from '../../output/write-file.js';
import type { GateVerdict } from '../../gate/verdict.js';
import { sarifCapLine, type SarifCap, type SarifLimits } from '../../gate/caps.js';
import { REPORT_KEYS, kindOf, sarifChunks, type ReportInputs, type ReportKey, type ReportPaths } from '../../gate/reports/registry.js';
import { capSarif, gzipFileSize, type SarifSink } from './sarif-cap.js';

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
 * paths removed, for a line on stderr (undecidedNotes).
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

/**
 * The stderr lines of the reports an undecided run removed (none: nothing was removed), one for those
 * it wrote itself before it lost its verdict (`wrote`: a pass whose other report failed, Ctrl-C while
 * the reports were written) and one for those an earlier run left.
 */
export function undecidedNotes(removed: readonly string[], wrote: readonly string[] = [], unpassed = false): string[] {
  const own = removed.filter((p) => wrote.includes(p));
  const earlier = removed.filter((p) => !wrote.includes(p));
  const lines: string[] = [];
  if (own.length > 0) lines.push(`removed ${own.join(', ')}: ${unpassed ? 'written as a pass before another report failed, and the run does not pass' : 'written by this run before it ended without a verdict'}`);
  if (earlier.length > 0) lines.push(`removed ${earlier.join(', ')}: ${earlier.length === 1 ? 'a report' : 'reports'} of an earlier run, which this run could not replace (it has no verdict)`);
  return lines;
}

/**
 * Every report of a decided gate: the SARIF report first, within code scanning's limits (the
 * most severe results, the rest said: gate/caps.ts), measured as it is written; then the others in
 * table order. A report that cannot be written is said on stderr and returned, and the others are
 * still written; anything else (Ctrl-C, the kept issues' file failing) is thrown, `written` then
 * holding the keys written.
 */
export async function writeDecidedReports(ctx: Context, paths: ReportPaths, verdict: GateVerdict, inputs: ReportInputs, written: ReportKey[]): Promise<{ failed: ReportWriteError[]; sarifFailed: boolean }> {
  const failed: ReportWriteError[] = [];
  const said = (err: ReportWriteError) => { failed.push(err); ctx.warn(`${err.message}; ${err.hint}`); };
  let sarifFailed = false;
  let rest = paths;
  // A FAIL proven on an incomplete listing: a report that stands for every open issue would have the
  // issues of the pages not read taken as fixed. Not written, and an earlier run's file removed.
  if (verdict.incomplete !== undefined) {
    const whole = REPORT_KEYS.filter((k) => paths[k] !== undefined && kindOf(k).wholeList);
    if (whole.length > 0) {
      rest = Object.fromEntries(Object.entries(paths).filter(([k]) => !whole.includes(k as ReportKey))) as ReportPaths;
      const removed: string[] = [];
      for (const k of whole) if (await removeStaleReport(paths[k]!)) removed.push(paths[k]!);
      ctx.warn(`not written: ${whole.map((k) => `${kindOf(k).flag} ${paths[k]}`).join(', ')}: the listing was incomplete, and ${whole.length === 1 ? 'this report stands' : 'these reports stand'} for every open issue (those not read would read as fixed)${removed.length > 0 ? `; removed the earlier ${removed.join(', ')}` : ''}`);
    }
  }
  if (rest.sarif) {
    try {
      inputs.sarif = await writeSarifReport(rest.sarif, verdict, inputs, ctx.io.stdout, ctx.signal);
    } catch (err) {
      if (!(err instanceof ReportWriteError)) throw err;
      said(err);
      sarifFailed = true;
      rest = { ...rest, sarif: undefined };
    }
    written.push('sarif');
  }
  for (const line of sarifCapLine(inputs.sarif)) ctx.warn(line);
  for (const err of await writeReports(rest, verdict, { ...inputs, stdout: ctx.io.stdout, note: ctx.note, signal: ctx.signal }, ['sarif'], written)) said(err);
  return { failed, sarifFailed };
}
