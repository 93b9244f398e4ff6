/**
 * Bulk actions: one call per id (`svc issues archive id1 id2 ...`, `--ids-from`, `--where`), in one
 * process, with at most `concurrency` calls in flight. Each call is the row's own (the HTTP client
 * retries it as it retries any change: only when it provably never arrived, or on 429).
 *
 * - Duplicates are sent once; the summary and the id's record say how often it was given.
 * - Ctrl-C stops sending: the calls in flight finish (their outcomes are known), a wait to retry
 *   (429) ends at once, the rest are recorded as not sent; --failed-to is written, then every
 *   record and the summary, and the exit code is 130. SIGTERM, or a second Ctrl-C, ends the
 *   calls in flight too (recorded as "may or may not have been applied"; 143 for SIGTERM). The run
 *   holds the process's exit until it has reported (Host.hold, src/entry.ts).
 * - A 401/403 stops sending as well: every later call would fail the same way.
 * - Progress: a bar on a terminal (done/failed/left, rate, ETA); in CI a line every few seconds.
 * - Result: one record per id (`-o json|ndjson|csv`), a summary line on stderr, `--failed-to FILE`
 *   with the ids that failed or were not sent, and the exit code of the most serious failure
 *   (BULK_FAILURE_ORDER in src/core/exit-codes.ts); 0 only when every id succeeded.
 */
import { terminalWidth } from '../core/host.js';
import type { Context } from '../context.js';
import type { Operation } from '../operations/types.js';
import { CliError, InterruptedError } from '../core/errors.js';
import { BULK_FAILURE_ORDER, EXIT, type ExitCode } from '../core/exit-codes.js';
import { ApiError, ConnectionError, ResponseError, ServerError, TimeoutError } from '../http/api-errors.js';
import { describeRequest } from '../http/dry-run.js';
import { render } from '../output/render.js';
import { checkShape } from '../output/respond.js';
import { writeFailedTo } from './failed-to.js';
import { count } from '../terminal/progress.js';
import { outputSink } from '../output/print-json.js';
import { write } from '../output/write.js';
import { allowListeners } from './all-pages.js';
import { printDryRunPreview } from './bulk-preview.js';
import type { Skipped } from './bulk-where.js';
import { sendRow } from '../http/row-call.js';

interface BulkJob {
  op: Operation;
  /** The ids as given, in order (duplicates included). */
  ids: string[];
  /**
   * Issues `--where`'s search answered outside its filter (bulk-where.ts): never sent, each recorded as
   * skipped (code 10, and the run's code when nothing worse happened), never in --failed-to.
   */
  skipped?: Skipped[];
  /** The request body of one id. */
  bodyFor(id: string): Record<string, unknown>;
  concurrency: number;
  /** `--failed-to FILE`, as given. */
  failedTo?: string;
  /** Where it is written: resolved and checked before anything is sent (failed-to.ts). */
  failedToPath?: string;
  /** For --dry-run's table on a terminal: the issues --where found (by id), and the search that draws them. */
  found?: ReadonlyMap<string, Record<string, unknown>>;
  search?: Operation;
}

/**
 * `unknown`: the call reached the service and its answer does not say whether it was applied (cut
 * off in flight by a second Ctrl-C or SIGTERM, a 5xx or 408, a timeout waiting for the answer, a
 * success status with an answer svc cannot read): the undo leaves it out and names it (bulk-ids.ts).
 */
type Outcome = 'done' | 'failed' | 'unknown' | 'not-sent' | 'skipped';

/** Whether a call that failed with `err` may have been applied (its outcome is unknown). */
function mayHaveApplied(err: unknown): boolean {
  if (err instanceof InterruptedError) return !err.waitingToRetry;
  if (err instanceof ServerError) return true;
  // Waiting for the connection: nothing was sent. For the answer's headers or body: it was.
  if (err instanceof TimeoutError) return err.phase !== 'connect';
  // A connection that failed after the request went out (reset, closed mid-answer).
  if (err instanceof ConnectionError) return !err.neverSent;
  // A status svc does not take as the answer (a 2xx not 200, a redirect not followed): it was handled.
  if (err instanceof ResponseError) return true;
  // An answer not understood after a success status (not JSON, another shape, no `ok`).
  return err instanceof CliError && err.exitCode === EXIT.BAD_RESPONSE;
}

interface BulkRecord {
  id: string;
  /**
   * The action, `issues archive`: a record fed to `--ids-from` of the action that undoes it is known
   * as such (bulk-ids.ts).
   */
  action: string;
  outcome: Outcome;
  /** The exit code this id alone would have given (0 when done). */
  code: number;
  /** HTTP status of a failure the service answered. */
  status?: number;
  error?: string;
  /** How often the id was given, when more than once (it was sent once). */
  given?: number;
  /** The service's answer, when done. */
  response?: unknown;
}

/** A short name of a failure class, for the summary line. */
const CLASS: Partial<Record<number, string>> = {
  [EXIT.AUTH]: 'not authorized', [EXIT.NOT_FOUND]: 'not found', [EXIT.REJECTED]: 'rejected',
  [EXIT.NETWORK]: 'may work later', [EXIT.BAD_RESPONSE]: 'answer not understood', [EXIT.INTERNAL]: 'internal error',
  [EXIT.PARTIAL]: 'skipped',
};

/** Ids in order, each once, with how often each was given. */
function unique(ids: string[]): { order: string[]; times: Map<string, number> } {
  const times = new Map<string, number>();
  for (const id of ids) times.set(id, (times.get(id) ?? 0) + 1);
  return { order: [...times.keys()], times };
}

export async function runBulk(ctx: Context, job: BulkJob): Promise<void> {
  const { op } = job;
  const { order, times } = unique(job.ids);
  const dupes = order.filter((id) => times.get(id)! > 1);
  if (dupes.length) ctx.warn(`${plural(dupes.length, 'id')} given more than once, sent once: ${list(dupes.map((id) => `${id} (x${times.get(id)})`))}`);
  if (ctx.globals.dryRun && ctx.format() === 'table') {
    // On a terminal: the issues as a table and one request as the example of all (bulk-preview.ts).
    await printDryRunPreview(ctx, { op, order, request: (id) => describeRequest(ctx, op.path, job.bodyFor(id)), found: job.found, search: job.search });
    return;
  }
  if (ctx.globals.dryRun) {
    // What would be sent, one request per id (JSON: a list; NDJSON: one a line).
    const requests = order.map((id) => describeRequest(ctx, op.path, job.bodyFor(id)));
    ctx.out(ctx.format() === 'ndjson' ? requests.map((r) => JSON.stringify(r)).join('\n') + '\n' : JSON.stringify(requests, null, 2) + '\n');
    ctx.note(`dry run: ${plural(order.length, 'request')} to ${op.path}, none sent`);
    return;
  }
  const action = `${op.group} ${op.name}`;
  const client = await ctx.client();
  const concurrency = Math.min(job.concurrency, order.length);
  allowListeners(ctx.signal, concurrency);
  // After Ctrl-C the calls in flight finish (each id's outcome is then known), and this run holds the
  // process's exit until every record is written (Host.hold). SIGTERM, or a second signal, ends them.
  const held = ctx.hold?.();
  const inFlight = new AbortController();
  // The calls are sent with this signal, each listening to it (--concurrency up to 16: node warned at 11).
  allowListeners(inFlight.signal, concurrency);
  const records = new Map<string, BulkRecord>();
  let failed = 0;
  let active = 0;
  let stopped: 'interrupted' | 'auth' | undefined;
  const onAbort = () => {
    if (ctx.signal.reason === 'SIGTERM') return inFlight.abort('SIGTERM');
    if (active > 0) ctx.note(`interrupted: no more calls are sent; waiting for the ${plural(active, 'call')} in flight to answer (Ctrl-C again stops them: their outcome is then unknown)`);
  };
  const onStop = () => inFlight.abort(held?.stop.reason);
  ctx.signal.addEventListener('abort', onAbort, { once: true });
  held?.stop.addEventListener('abort', onStop, { once: true });
  try {
    await sendAll();
  } finally {
    ctx.signal.removeEventListener('abort', onAbort);
    held?.stop.removeEventListener('abort', onStop);
  }
  try {
    await report();
  } finally {
    held?.release();
  }

  async function sendAll(): Promise<void> {
    const started = ctx.now();
    let next = 0;
    const what = action;
    const progress = await ctx.progress(`${what}: 0 of ${count(order.length)}`);
    const tick = () => progress.update(progressText(what, records.size, failed, order.length, ctx.now() - started, progress.live ? terminalWidth(ctx, 'stderr') : undefined));
    const worker = async () => {
      while (next < order.length) {
        if (ctx.signal.aborted) stopped ??= 'interrupted';
        if (stopped) return;
        const id = order[next++];
        active++;
        try {
          // A wait to retry (429) is not a call in flight: Ctrl-C ends it at once (waitSignal).
          const response = await sendRow(client, op, job.bodyFor(id), { signal: inFlight.signal, waitSignal: ctx.signal });
          // As one id's call would be checked: a wrong shape is 7, `ok: false` is 5 (output/respond.ts).
          checkShape(ctx, op, response);
          records.set(id, { id, action, outcome: 'done', code: 0, response });
        } catch (err) {
          const code = err instanceof CliError ? err.exitCode : EXIT.INTERNAL;
          if (err instanceof InterruptedError) {
            records.set(id, {
              id, action, outcome: err.waitingToRetry ? 'not-sent' : 'unknown', code,
              error: err.waitingToRetry
                ? 'interrupted while waiting to send it again: the service had not taken it'
                : 'interrupted while in flight: it may or may not have been applied',
            });
            stopped ??= 'interrupted';
          } else {
            records.set(id, {
              id, action, outcome: mayHaveApplied(err) ? 'unknown' : 'failed', code,
              ...(err instanceof ApiError && err.status !== undefined ? { status: err.status } : {}),
              error: err instanceof Error ? err.message : String(err),
            });
            if (code === EXIT.AUTH) stopped ??= 'auth';
          }
          failed++;
        } finally {
          active--;
        }
        tick();
      }
    };
    try {
      await Promise.all(Array.from({ length: concurrency }, worker));
    } finally {
      progress.stop();
    }
  }

  /**
   * --failed-to (a file: it does not depend on a reader), then one record per id (in the order given),
   * then the summary. Written whatever happened, also after a signal: the records go to stdout without
   * the interrupt's hold on writes (the process's exit waits for them to reach the reader,
   * src/entry.ts), and the exit code is settled first, so a reader that goes away does not turn it into 0.
   */
  async function report(): Promise<void> {
    const why = stopped === 'auth' ? 'not sent: an earlier call was refused as not authorized' : 'not sent: interrupted';
    const all = order.map((id): BulkRecord => {
      const rec = records.get(id) ?? { id, action, outcome: 'not-sent', code: stopped === 'auth' ? EXIT.AUTH : EXIT.INTERRUPTED, error: why };
      const n = times.get(id)!;
      return n > 1 ? { ...rec, given: n } : rec;
    });
    for (const s of job.skipped ?? []) {
      all.push({ id: s.id, action, outcome: 'skipped', code: EXIT.PARTIAL, error: s.unnamed ? `not acted on: ${s.why}` : `not acted on: the search answered it outside --where (${s.why})` });
    }
    let failedWritten = false;
    if (job.failedTo !== undefined) {
      // A skipped issue is not one to try again: it is outside the filter.
      const ids = all.filter((r) => r.outcome !== 'done' && r.outcome !== 'skipped').map((r) => r.id);
      failedWritten = await writeFailedTo(ctx, job.failedToPath ?? job.failedTo, job.failedTo, ids);
    }
    const outcome = verdict(all);
    ctx.settle?.(outcome.code);
    const format = ctx.format();
    if (format !== 'table') {
      await render(all, { format, columns: ['id', 'action', 'outcome', 'code', 'status', 'error', 'given'], pretty: ctx.io.stdoutIsTTY, color: ctx.color, jq: ctx.globals.jq }, { ...outputSink(ctx), write: (t) => write(ctx.io.stdout, t), signal: undefined });
    }
    if (outcome.code === EXIT.OK) {
      ctx.note(outcome.line);
      return;
    }
    throw new CliError(outcome.line, outcome.code, rerunHint(job, all, failedWritten));
  }

  /** The summary line and the exit code of the run. */
  function verdict(all: BulkRecord[]): { line: string; code: ExitCode } {
    const done = all.filter((r) => r.outcome === 'done').length;
    const line = summary(op, all, done, dupes.length);
    if (stopped === 'interrupted' || ctx.signal.aborted) {
      return { line: /\(interrupted\)/.test(line) ? line : `${line} (interrupted)`, code: ctx.signal.reason === 'SIGTERM' ? EXIT.TERMINATED : EXIT.INTERRUPTED };
    }
    return { line, code: done === all.length ? EXIT.OK : worstCode(all) };
  }
}

/** The most serious failure class among the records (BULK_FAILURE_ORDER). */
function worstCode(records: BulkRecord[]): ExitCode {
  const codes = new Set(records.map((r) => r.code));
  return BULK_FAILURE_ORDER.find((c) => codes.has(c)) ?? EXIT.INTERNAL;
}

function rerunHint(job: BulkJob, all: readonly BulkRecord[] = [], failedWritten = true): string {
  // Only issues skipped: nothing to run again (they are outside the filter).
  if (all.length > 0 && all.every((r) => r.outcome === 'done' || r.outcome === 'skipped')) {
    if (all.every((r) => r.outcome === 'done' || r.error?.startsWith(UNNAMED))) return 'act on those issues where their ids are shown whole (the service\'s dashboard): svc would send another number';
    return 'the skipped issues are outside the filter that found them: look at them (svc issues get ID) before acting on one by its id';
  }
  if (job.failedTo !== undefined && !failedWritten) return `the ids that failed or were not sent are in the records above (--failed-to ${job.failedTo} could not be written)`;
  return job.failedTo !== undefined
    ? `the ids that failed or were not sent are in ${job.failedTo}: run the same command with --ids-from ${job.failedTo}`
    : 'add --failed-to FILE to keep the ids that failed, then run again with --ids-from FILE';
}

/** `48 archived, 2 failed: iss_a (not found), iss_b (rejected: ...); 3 not sent; 1 duplicate`. */
function summary(op: Operation, records: BulkRecord[], done: number, dupes: number): string {
  const failed = records.filter((r) => r.outcome === 'failed');
  const notSent = records.filter((r) => r.outcome === 'not-sent');
  const skipped = records.filter((r) => r.outcome === 'skipped' && !r.error?.startsWith(UNNAMED));
  const unnamed = records.filter((r) => r.outcome === 'skipped' && r.error?.startsWith(UNNAMED));
  const unsure = records.filter((r) => r.outcome === 'unknown' && !r.error?.startsWith('interrupted while in flight'));
  const parts = [`${count(done)} ${op.bulk?.done ?? 'done'}`];
  if (failed.length) parts.push(`${count(failed.length)} failed: ${list(failed.map((r) => `${r.id} (${failureText(r)})`))}`);
  if (unsure.length) parts.push(`${count(unsure.length)} failed, outcome unknown (may have been applied): ${list(unsure.map((r) => `${r.id} (${failureText(r)})`))}`);
  if (skipped.length) parts.push(`${count(skipped.length)} skipped, outside --where (the service answered ${skipped.length === 1 ? 'it' : 'them'} outside the filter): ${list(skipped.map((r) => `${r.id} (${r.error?.replace(/^.*outside --where \((.*)\)$/, '$1')})`))}`);
  if (unnamed.length) parts.push(`${count(unnamed.length)} skipped, ${unnamed.length === 1 ? 'its id a number' : 'their ids numbers'} svc cannot send as the service wrote ${unnamed.length === 1 ? 'it' : 'them'}: ${list(unnamed.map((r) => r.id))}`);
  let line = parts.join(', ');
  // A call cut off in flight is told apart: the service may have applied it.
  const unknown = records.filter((r) => r.outcome === 'unknown' && r.error?.startsWith('interrupted while in flight'));
  const unsent = notSent;
  if (unknown.length) line += `; ${count(unknown.length)} cut off in flight (may or may not have been applied)`;
  if (unsent.length) line += `; ${count(unsent.length)} not sent (${unsent[0].error?.replace(/^not sent: /, '').replace(/ while waiting to send it again:.*$/, '')})`;
  if (dupes) line += `; ${plural(dupes, 'duplicate id')} sent once`;
  return line;
}

/** How the record of an issue --where found but cannot name (its id a number a double rounds) begins. */
const UNNAMED = 'not acted on: its id is a number';

function failureText(r: BulkRecord): string {
  const kind = CLASS[r.code] ?? `exit ${r.code}`;
  if (r.code === EXIT.NOT_FOUND) return kind;
  // The service's own words after "... failed: HTTP 400: ".
  const detail = (r.error ?? '').replace(/^.*?failed: HTTP \d+:?\s*/, '').slice(0, 120);
  return detail ? `${kind}: ${detail}` : kind;
}

/** The first few of a list, then how many more. */
function list(items: string[], shown = 10): string {
  return items.length <= shown ? items.join(', ') : `${items.slice(0, shown).join(', ')} and ${count(items.length - shown)} more`;
}

function plural(n: number, word: string): string {
  return `${count(n)} ${word}${n === 1 ? '' : 's'}`;
}

/** `issues archive [########------] 48/100, 2 failed, 50 left, 35.2/s, ETA 2 s`. */
export function progressText(what: string, finished: number, failed: number, total: number, elapsedMs: number, width?: number): string {
  const left = total - finished;
  const rate = elapsedMs > 0 ? (finished * 1000) / elapsedMs : 0;
  const eta = rate > 0 ? Math.ceil(left / rate) : undefined;
  const tail = `${count(finished)}/${count(total)}, ${count(failed)} failed, ${count(left)} left, ${rate.toFixed(1)}/s${eta !== undefined ? `, ETA ${eta} s` : ''}`;
  if (width === undefined) return `${what}: ${tail}`;
  const barWidth = Math.max(5, Math.min(30, width - what.length - tail.length - 8));
  const filled = total ? Math.round((finished / total) * barWidth) : 0;
  return `${what} [${'#'.repeat(filled)}${'-'.repeat(barWidth - filled)}] ${tail}`;
}
