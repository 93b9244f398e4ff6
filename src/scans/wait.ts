/**
 * `svc scans start --wait`: poll `scans list` for the started scan until it is done, has failed,
 * or `--wait-timeout` passes.
 *
 * How a scan record reads (readScan, rows `scan-*` of answers/checks.ts):
 * - done: status `completed` or `finished` (field notes); a common word for done (`complete`, `done`,
 *   `succeeded`, `success`, `successful`: inference, a warning) unless a finished flag says false; or
 *   a status svc does not know where the finished flags (`finished`/`codeScanFinished`) present all
 *   say true (a warning); an
 *   `errorMessage` beside that is a warning about part of the scan (inference), not a failure;
 * - failed: status failed, error, errored, cancelled, canceled or aborted; or an `errorMessage` on a
 *   scan that neither its word nor its flags say is done;
 * - running: status queued, pending, running, in_progress, started or scanning (inference: the words
 *   such services use), or finished flags that say false; a word and flags that disagree (pending);
 * - unknown: a word svc does not know with no finished flag (or neither): exit 7 naming it, never a
 *   wait (or an exit 8) the service did not state.
 *
 * Exit codes: 0 done; 1 the scan failed (the table's "gate failed" code, which it reserves for gate
 * and scan waits: the service gave a definite bad outcome); 6 the wait timed out (the scan may still
 * finish on the service); 130 on Ctrl-C; a poll that fails ends like any call (3, 6, 7...), except
 * that up to 3 network/5xx failures in a row (each after the client's own retries) are waited out.
 */
import { layoutWidth } from '../core/host.js';
import type { Context } from '../context.js';
import type { FollowUpStep } from '../request/follow-up.js';
import { CliError, InterruptedError, UsageError } from '../core/errors.js';
import { EXIT } from '../core/exit-codes.js';
import { ApiError } from '../http/api-errors.js';
import { render } from '../output/render.js';
import { parseColumns } from '../output/columns.js';
import { askedFormat } from '../output/data-format.js';
import { numberFlag } from '../request/number-flag.js';
import { duration } from '../terminal/progress.js';
import { answerValue, escapeControls, quoted } from '../core/sanitize.js';
import type { CheckId } from '../answers/checks.js';
import { Doubts, refusal, type Report } from '../answers/doubts.js';
import { itemsOf } from '../answers/item-scope.js';
import { callRow } from '../http/row-call.js';
import { rowOf } from '../operations/index.js';

const DEFAULT_POLL_SEC = 10;
const DEFAULT_WAIT_TIMEOUT_SEC = 3600;
/** Longest silence in a CI log while waiting. */
export const HEARTBEAT_MS = 30_000;
/** Failed polls in a row (network, timeout, 5xx) that are waited out before giving up. */
const MAX_POLL_FAILURES = 3;

export interface WaitSettings {
  pollMs: number;
  timeoutMs: number;
}

type ScanState = 'done' | 'failed' | 'running' | 'unknown';

const DONE = new Set(['completed', 'finished']);
/** Inference: words other services use for a scan that has ended well (the field notes name only the two above). */
const DONE_INFERRED = new Set(['complete', 'done', 'succeeded', 'success', 'successful']);
/** How often the elapsed time on a terminal's status line moves. */
const TICK_MS = 1000;
const FAILED = new Set(['failed', 'error', 'errored', 'cancelled', 'canceled', 'aborted']);
/** Inference: the words of a scan still under way (the field notes name none). */
const RUNNING = new Set(['queued', 'pending', 'running', 'in_progress', 'in-progress', 'inprogress', 'started', 'scanning']);

type ScanItem = Record<string, unknown>;

/** How a scan record reads, and the doubts it raises (rows of answers/checks.ts), for the caller to report. */
interface ScanReading {
  state: ScanState;
  notes: Array<{ id: CheckId; detail: string }>;
}

/**
 * The state of a scan record (see the top of this file). A scan whose status and finished-flags
 * disagree (status running but `finished: true`, status completed but `codeScanFinished: false`, the
 * two flags apart, a flag that is not a boolean) is not done: it is still running as far as svc can
 * tell (a wait goes on polling; the gate is exit 8, pending).
 */
function readScan(item: ScanItem): ScanReading {
  const word = typeof item.status === 'string' ? item.status.trim() : '';
  const status = word.toLowerCase();
  const said = word === '' ? 'no status' : `status ${quoted(word, 40)}`;
  const message = typeof item.errorMessage === 'string' && item.errorMessage.trim() !== '' ? item.errorMessage.trim() : undefined;
  const notes: ScanReading['notes'] = [];
  const disagree = (why: string): ScanReading => ({ state: 'running', notes: [{ id: 'scan-flags-disagree', detail: `${said} ${why}: taken as not finished` }] });
  if (FAILED.has(status)) return { state: 'failed', notes };
  const flags = [item.finished, item.codeScanFinished].filter((f) => f !== undefined && f !== null);
  if (flags.some((f) => f !== true && f !== false)) return disagree(`with a finished flag that is not a boolean (${flags.map((f) => answerValue(f)).join(', ')})`);
  const flagged = flags.length > 0 ? flags.every((f) => f === true) : undefined;
  if (flags.length > 0 && !flagged && flags.some((f) => f === true)) return disagree('with finished and codeScanFinished apart');
  const done = (): ScanReading => {
    if (message !== undefined) notes.push({ id: 'scan-message-done', detail: `${said}, finished, with errorMessage ${JSON.stringify(message.slice(0, 160))}: taken as done (a warning about part of it)` });
    return { state: 'done', notes };
  };
  if (DONE.has(status)) return flagged === false ? disagree('with finished: false') : done();
  if (RUNNING.has(status)) {
    if (flagged === true) return disagree('with finished: true');
    return { state: message !== undefined ? 'failed' : 'running', notes };
  }
  // (A finished flag false beside one reads as a word svc does not know, below: a message there is a failure.)
  if (DONE_INFERRED.has(status) && flagged !== false) {
    notes.push({ id: 'scan-word-done', detail: `${said}${flagged === true ? ' with the finished flags true' : ''}: taken as done${flagged === true ? '' : ' (inference: a common word for done)'}` });
    return done();
  }
  // A word svc does not know (or none): the flags say what it means; without them nothing is stated.
  if (flagged === true) {
    if (word !== '') notes.push({ id: 'scan-word-done', detail: `${said} with the finished flags true: taken as done` });
    return done();
  }
  if (message !== undefined) return { state: 'failed', notes };
  if (flagged === false) return { state: 'running', notes };
  notes.push({ id: 'scan-word-unknown', detail: `${said} and no finished flag: svc cannot tell whether it has finished` });
  return { state: 'unknown', notes };
}

/** The state alone (see readScan). */
export function scanState(item: ScanItem): ScanState {
  return readScan(item).state;
}

/** The scan record read, its doubts reported (`scan-word-unknown` is refused: exit 7 naming the word). */
export function reportScan(item: ScanItem, what: string, report: Report): ScanState {
  const r = readScan(item);
  for (const n of r.notes) report(n.id, what, n.detail, n.id === 'scan-word-unknown' ? 'svc knows completed, finished, complete, done, succeeded, success and successful as done and queued, pending, running, in_progress, started and scanning as running; check the service version, or gate on what the scan found with --repository-ids' : undefined);
  return r.state;
}

export class ScanFailedError extends CliError {
  constructor(message: string, hint: string) { super(message, EXIT.GATE_FAILED, hint); }
}

export class WaitTimeoutError extends CliError {
  constructor(message: string, hint: string) { super(message, EXIT.NETWORK, hint); }
}

function seconds(raw: unknown, flag: string, dflt: number, min: number, max: number): number {
  return numberFlag(raw, { flag, min, max, unit: 'seconds' }, dflt);
}

export function prepareWait(opts: Record<string, unknown>): WaitSettings {
  const pollSec = seconds(opts.pollInterval, '--poll-interval', DEFAULT_POLL_SEC, 0.1, 3600);
  const timeoutSec = seconds(opts.waitTimeout, '--wait-timeout', DEFAULT_WAIT_TIMEOUT_SEC, 1, 7 * 24 * 3600);
  if (opts.wait !== true) {
    const given = opts.pollInterval !== undefined ? '--poll-interval' : '--wait-timeout';
    throw new UsageError(`${given} only applies with --wait`, 'add --wait, or drop it');
  }
  return { pollMs: pollSec * 1000, timeoutMs: timeoutSec * 1000 };
}

const idText = (v: unknown): string | undefined => ((typeof v === 'string' && v.trim() !== '') || typeof v === 'number' ? String(v) : undefined);

/** Characters an id printed alone on stdout (for `$(svc scans start ... --wait)`) and in messages must not hold. */
const UNPRINTABLE = /[\s\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/;

/**
 * A started scan's id as svc can wait on it and print it: one a double does not hold exactly
 * (12345678901234567890, read as ...7000) would name another scan, and one holding a control
 * character, a space or an invisible one would print as something else (or act on the terminal):
 * neither is taken (`scan-id-unusable`, exit 7).
 */
function usableId(v: unknown, id: string): string {
  if (typeof v === 'number' && !Number.isSafeInteger(v)) {
    throw refusal('scan-id-unusable', 'scans start', `the scan id is a number svc cannot hold exactly (read as ${id}): waiting on it would wait on another scan`, 'look for the scan with `svc scans list`');
  }
  if (UNPRINTABLE.test(id)) {
    throw refusal('scan-id-unusable', 'scans start', `the scan id ${quoted(id, 60).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)} holds a space, a control or an invisible character, so it cannot be printed as the service wrote it`, 'look for the scan with `svc scans list`');
  }
  return id;
}

/**
 * The ids of the started scans: `scanId` (or `id`, as some clients fall back to), and every one of
 * `scanIds` where the answer lists the scans of several repositories (svc's sandbox does; inference:
 * the field notes show `{ scanId }` only), each once.
 */
export function startedScanIds(response: unknown): string[] {
  const r = (response ?? {}) as Record<string, unknown>;
  const ids = new Set<string>();
  const firstKey = idText(r.scanId) !== undefined ? 'scanId' : 'id';
  const first = idText(r[firstKey]);
  if (first !== undefined) ids.add(usableId(r[firstKey], first));
  if (Array.isArray(r.scanIds)) for (const v of r.scanIds) { const id = idText(v); if (id !== undefined) ids.add(usableId(v, id)); }
  if (ids.size === 0) throw refusal('scan-started-no-id', 'scans start', 'the response has no scanId (nor id, nor scanIds), so there is no scan to wait for', 'look for the scan with `svc scans list`');
  return [...ids];
}

/**
 * The scan's item in a `scans list` response (to a request for that one scan id), if listed. An
 * answer whose totalCount exceeds the records it holds is refused (`scan-total`: the rest of it is
 * unread, and could hold the scan again); a whole answer with other scans beside the one is read,
 * with a warning (`scan-others`: the service ignored the filter). A scan listed twice is refused
 * (`scan-twice`): two records of one scan contradict each other (or may: which one is the scan cannot
 * be told), so neither is taken, whichever comes first.
 */
export function findScan(data: unknown, scanId: string, report: Report = new Doubts('bulk').report, what = 'scans list'): ScanItem | undefined {
  const list = itemsOf(data, 'codeScans', what, report);
  const items = list.filter((x): x is ScanItem => x !== null && typeof x === 'object');
  const matches = items.filter((x) => String(x.scanId ?? x.id ?? '') === scanId);
  if (matches.length > 1) {
    const said = matches.map((x) => (typeof x.status === 'string' ? quoted(x.status, 40) : x.status === undefined ? 'no status' : answerValue(x.status))).join(', ');
    report('scan-twice', what, `the answer contradicts itself: scan '${scanId}' is listed ${matches.length} times (status ${said}), so which record is the scan cannot be told`);
  }
  // The answer to a request for one scan id: its totalCount says how many scans match. More than the
  // records it holds (page 2 would hold the rest: another record of the scan, say running), or more
  // than one (one id, one scan), and the records read are not the whole answer: neither is trusted.
  const total = (data as { totalCount?: unknown }).totalCount;
  if (typeof total === 'number' && total > list.length) {
    report('scan-total', what, `the answer is incomplete: it gives totalCount ${total} for scan '${scanId}' but holds ${list.length} record${list.length === 1 ? '' : 's'}, so the scan's state cannot be told`);
  } else if (matches.length === 1 && items.length > 1) {
    // Whole (its total, if any, is what it holds) and the scan once in it: other scans beside it say
    // the service did not filter by scanId, not that the scan is two.
    report('scan-others', what, `the answer holds ${items.length - 1} other scan${items.length === 2 ? '' : 's'} beside '${scanId}' (the scanId filter seems ignored): its one record is read`);
  }
  const match = matches[0];
  if (match) return match;
  // A scan record without an id is never "the" scan: it cannot be told from another scan.
  if (items.some((x) => (x.scanId ?? x.id) === undefined || (x.scanId ?? x.id) === null)) {
    report('scan-no-id', what, `the answer holds a scan without an id, so scan '${scanId}' cannot be told from it`, 'check the base URL; --verbose shows the answer');
  }
  return undefined;
}

function transient(err: unknown): boolean {
  return err instanceof ApiError && err.exitCode === EXIT.NETWORK;
}

/** Waits for one scan; `since`: when the wait began (several scans share one --wait-timeout). */
export async function waitForScan(ctx: Context, scanId: string, organizationId: unknown, s: WaitSettings, since?: number): Promise<ScanItem> {
  const client = await ctx.client();
  const list = await rowOf('scans', 'list');
  const body: Record<string, unknown> = { scanId, page: 1, pageSize: 10 };
  if (typeof organizationId === 'string') body.organizationId = organizationId;
  const started = ctx.now();
  const deadline = (since ?? started) + s.timeoutMs;
  ctx.note(`waiting for scan ${scanId} (status every ${s.pollMs / 1000}s, up to ${s.timeoutMs / 1000}s; --wait-timeout)`);
  const progress = await ctx.progress(`scan ${scanId}: waiting`);
  let status = 'not listed yet';
  let lastLineAt = started;
  let failures = 0;
  try {
    for (;;) {
      let item: ScanItem | undefined;
      let polled = false;
      try {
        item = findScan(await callRow(client, list, body, { what: `scans list --scan-id ${scanId}` }), scanId, ctx.doubts.report, `scans list --scan-id ${scanId}`);
        polled = true;
        failures = 0;
      } catch (err) {
        if (ctx.signal.aborted || !transient(err) || ++failures > MAX_POLL_FAILURES) throw err;
        progress.line(`warning: checking scan ${scanId} failed (${(err as Error).message}); trying again`);
        lastLineAt = ctx.now();
      }
      const now = ctx.now();
      if (polled) {
        const state = item ? scanState(item) : 'running';
        // The service's status, escaped before it goes into a line (escapeControls: nothing in it can act on the line).
        const next = item ? escapeControls(String(item.status ?? (state === 'running' || state === 'unknown' ? 'running' : state))) : 'not listed yet';
        if (next !== status || lastLineAt === started) {
          status = next;
          // On a terminal the one status line (the spinner) says it; elsewhere a line per change.
          if (!progress.live) progress.line(`scan ${scanId}: ${status} (${duration(now - started)})`);
          lastLineAt = now;
        }
        // Done, failed, or a word svc cannot read (refused: exit 7 naming it): the record's doubts reported.
        if (item && state !== 'running') {
          reportScan(item, `scan ${scanId}`, ctx.doubts.report);
          return item;
        }
      }
      if (now >= deadline) {
        throw new WaitTimeoutError(
          `timed out waiting for scan ${scanId} after ${duration(s.timeoutMs)} (--wait-timeout ${s.timeoutMs / 1000}); last status: ${status}`,
          `the scan goes on in the service: raise --wait-timeout, or check it with \`svc scans list --scan-id ${scanId}\``,
        );
      }
      progress.update(`scan ${scanId}: ${status} (${duration(now - started)})`);
      if (!progress.live && now - lastLineAt >= HEARTBEAT_MS) {
        progress.line(`scan ${scanId}: still ${status} (${duration(now - started)})`);
        lastLineAt = now;
      }
      try {
        // On a terminal the elapsed time moves every second between two polls.
        const wait = Math.min(s.pollMs, deadline - now);
        const ticks = progress.live ? Math.max(1, Math.ceil(wait / TICK_MS)) : 1;
        for (let i = 0; i < ticks; i++) {
          await ctx.sleep(ticks === 1 ? wait : Math.min(TICK_MS, wait - i * TICK_MS), ctx.signal);
          if (progress.live) progress.update(`scan ${scanId}: ${status} (${duration(ctx.now() - started)})`);
        }
      } catch {
        throw new InterruptedError(ctx.signal.reason === 'SIGTERM' ? 'SIGTERM' : 'SIGINT', `the scan keeps running: svc scans list --scan-id ${scanId}`);
      }
    }
  } finally {
    progress.stop();
  }
}

/**
 * stdout: the scan ids alone, one a line, or the final scan records when -o json/ndjson/csv is asked
 * for (one scan: its record; several: a list of them).
 */
async function printScans(ctx: Context, done: ReadonlyArray<[string, ScanItem]>): Promise<void> {
  const format = askedFormat(ctx);
  if (format === 'table') { ctx.out(done.map(([scanId]) => `${scanId}\n`).join('')); return; }
  await render(done.length === 1 ? done[0][1] : done.map(([, item]) => item), { format, columns: ctx.globals.columns !== undefined ? parseColumns(ctx.globals.columns) : [], pretty: ctx.io.stdoutIsTTY, color: ctx.color, width: layoutWidth(ctx), jq: ctx.globals.jq, project: ctx.globals.columns !== undefined }, { out: ctx.out, note: ctx.note });
}

export const scanWait: FollowUpStep = {
  prepare: prepareWait,
  async run(ctx, _op, body, response, settings) {
    // Every scan started (one per repository where the answer lists them), in turn, within one --wait-timeout.
    const since = ctx.now();
    const done: Array<[string, ScanItem]> = [];
    for (const scanId of startedScanIds(response)) done.push([scanId, await waitForScan(ctx, scanId, body.organizationId, settings as WaitSettings, since)]);
    // The final records are data either way; the exit code tells a failed scan from a finished one.
    await printScans(ctx, done);
    const failed = done.filter(([, item]) => scanState(item) === 'failed');
    for (const [scanId, item] of done) {
      if (scanState(item) === 'failed') continue;
      const open = (item.issueCounts as { open?: unknown } | undefined)?.open;
      ctx.note(`scan ${scanId} ${String(item.status ?? 'finished')}${typeof open === 'number' ? `, ${open} open issue${open === 1 ? '' : 's'}` : ''}`);
    }
    if (failed.length > 0) {
      const why = (item: ScanItem) => (typeof item.errorMessage === 'string' && item.errorMessage.trim() !== '' ? item.errorMessage.trim() : `status ${String(item.status)}`);
      throw new ScanFailedError(failed.map(([scanId, item]) => `scan ${scanId} failed: ${why(item)}`).join('; '), `see \`svc scans list --scan-id ${failed[0][0]}\`; do not gate on a failed scan`);
    }
  },
};
