/**
 * `svc scans start --wait`: poll `scans list` for the started scan until it is done, has failed,
 * or `--wait-timeout` passes.
 *
 * Done: status `completed` or `finished` (field notes), or `finished`/`codeScanFinished` true.
 * Failed: status failed, error, errored, cancelled, canceled or aborted, or a non-empty errorMessage
 * (a failure wins over a finished flag). Anything else is still running.
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
import { ApiError, ResponseError } from '../http/api-errors.js';
import { render } from '../output/render.js';
import { parseColumns } from '../output/columns.js';
import { askedFormat } from '../output/data-format.js';
import { numberFlag } from '../request/number-flag.js';
import { duration } from '../terminal/progress.js';
import { answerValue, escapeControls, quoted } from '../core/sanitize.js';

export const LIST_PATH = '/api/v1/scans/list';
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

type ScanState = 'done' | 'failed' | 'running';

const DONE = new Set(['completed', 'finished']);
/** How often the elapsed time on a terminal's status line moves. */
const TICK_MS = 1000;
const FAILED = new Set(['failed', 'error', 'errored', 'cancelled', 'canceled', 'aborted']);

type ScanItem = Record<string, unknown>;

/**
 * A scan whose status and finished-flags disagree (status running but `finished: true`, status
 * completed but `codeScanFinished: false`, the two flags apart) is not done: it is still running as
 * far as svc can tell (a wait goes on polling; the gate is exit 8, pending).
 */
export function scanState(item: ScanItem): ScanState {
  const status = typeof item.status === 'string' ? item.status.trim().toLowerCase() : '';
  const error = typeof item.errorMessage === 'string' && item.errorMessage.trim() !== '';
  if (FAILED.has(status) || error) return 'failed';
  const flags = [item.finished, item.codeScanFinished].filter((f) => f !== undefined && f !== null);
  if (flags.some((f) => f !== true && f !== false)) return 'running';
  const flagged = flags.length > 0 ? flags.every((f) => f === true) : undefined;
  if (flags.length > 0 && !flagged && flags.some((f) => f === true)) return 'running';
  if (status !== '') {
    const done = DONE.has(status);
    if (flagged !== undefined && flagged !== done) return 'running';
    return done ? 'done' : 'running';
  }
  return flagged === true ? 'done' : 'running';
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

/** The id of the started scan: `scanId`, or `id` as some clients fall back to. */
export function startedScanId(response: unknown): string {
  const r = (response ?? {}) as Record<string, unknown>;
  for (const key of ['scanId', 'id']) {
    const v = r[key];
    if ((typeof v === 'string' && v.trim() !== '') || typeof v === 'number') return String(v);
  }
  throw new ResponseError('scans start: the response has no scanId (nor id), so there is no scan to wait for', undefined, 'look for the scan with `svc scans list`');
}

/**
 * The scan's item in a `scans list` response (to a request for that one scan id), if listed. An
 * answer whose totalCount exceeds the records it holds, or is more than 1, is exit 7 (the rest of it
 * is unread, or one id names several scans). A scan listed twice is exit 7: two records
 * of one scan contradict each other (or may: which one is the scan cannot be told), so neither is
 * taken, whichever comes first.
 */
export function findScan(data: unknown, scanId: string): ScanItem | undefined {
  const list = (data as { codeScans?: unknown } | null)?.codeScans;
  if (!Array.isArray(list)) throw new ResponseError("scans list: the response has no 'codeScans' list", undefined, 'check the base URL; try again with --verbose');
  const items = list.filter((x): x is ScanItem => x !== null && typeof x === 'object');
  const matches = items.filter((x) => String(x.scanId ?? x.id ?? '') === scanId);
  if (matches.length > 1) {
    const said = matches.map((x) => (typeof x.status === 'string' ? quoted(x.status, 40) : x.status === undefined ? 'no status' : answerValue(x.status))).join(', ');
    throw new ResponseError(
      `scans list: the answer contradicts itself: scan '${scanId}' is listed ${matches.length} times (status ${said}), so which record is the scan cannot be told`,
      undefined, 'the service (or a proxy) answered something svc cannot trust; check the base URL and the service version; --verbose shows the answer',
    );
  }
  // The answer to a request for one scan id: its totalCount says how many scans match. More than the
  // records it holds (page 2 would hold the rest: another record of the scan, say running), or more
  // than one (one id, one scan), and the records read are not the whole answer: neither is trusted.
  const total = (data as { totalCount?: unknown }).totalCount;
  if (typeof total === 'number' && (total > list.length || total > 1)) {
    throw new ResponseError(
      `scans list: the answer ${total > list.length ? 'is incomplete' : 'contradicts itself'}: it gives totalCount ${total} for scan '${scanId}' but holds ${list.length} record${list.length === 1 ? '' : 's'}${total > list.length ? '' : ', and one scan id names one scan'}, so the scan's state cannot be told`,
      undefined, 'the service (or a proxy) answered something svc cannot trust; check the base URL and the service version; --verbose shows the answer',
    );
  }
  const match = matches[0];
  if (match) return match;
  // A scan record without an id is never "the" scan: it cannot be told from another scan.
  if (items.some((x) => (x.scanId ?? x.id) === undefined || (x.scanId ?? x.id) === null)) {
    throw new ResponseError(`scans list: the answer holds a scan without an id, so scan '${scanId}' cannot be told from it`, undefined, 'check the base URL; --verbose shows the answer');
  }
  return undefined;
}

function transient(err: unknown): boolean {
  return err instanceof ApiError && err.exitCode === EXIT.NETWORK;
}

export async function waitForScan(ctx: Context, scanId: string, organizationId: unknown, s: WaitSettings): Promise<ScanItem> {
  const client = await ctx.client();
  const body: Record<string, unknown> = { scanId, page: 1, pageSize: 10 };
  if (typeof organizationId === 'string') body.organizationId = organizationId;
  const started = ctx.now();
  const deadline = started + s.timeoutMs;
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
        item = findScan(await client.call(LIST_PATH, body, { safe: true }), scanId);
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
        const next = item ? escapeControls(String(item.status ?? (state === 'running' ? 'running' : state))) : 'not listed yet';
        if (next !== status || lastLineAt === started) {
          status = next;
          // On a terminal the one status line (the spinner) says it; elsewhere a line per change.
          if (!progress.live) progress.line(`scan ${scanId}: ${status} (${duration(now - started)})`);
          lastLineAt = now;
        }
        if (item && state !== 'running') return item;
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

/** stdout: the scan id alone, or the final scan record when -o json/ndjson/csv is asked for. */
async function printScan(ctx: Context, scanId: string, item: ScanItem): Promise<void> {
  const format = askedFormat(ctx);
  if (format === 'table') { ctx.out(`${scanId}\n`); return; }
  await render(item, { format, columns: ctx.globals.columns !== undefined ? parseColumns(ctx.globals.columns) : [], pretty: ctx.io.stdoutIsTTY, color: ctx.color, width: layoutWidth(ctx), jq: ctx.globals.jq, project: ctx.globals.columns !== undefined }, { out: ctx.out, note: ctx.note });
}

export const scanWait: FollowUpStep = {
  prepare: prepareWait,
  async run(ctx, _op, body, response, settings) {
    const scanId = startedScanId(response);
    const item = await waitForScan(ctx, scanId, body.organizationId, settings as WaitSettings);
    // The final record is data either way; the exit code tells a failed scan from a finished one.
    await printScan(ctx, scanId, item);
    if (scanState(item) === 'failed') {
      const why = typeof item.errorMessage === 'string' && item.errorMessage.trim() !== '' ? item.errorMessage.trim() : `status ${String(item.status)}`;
      throw new ScanFailedError(`scan ${scanId} failed: ${why}`, `see \`svc scans list --scan-id ${scanId}\`; do not gate on a failed scan`);
    }
    const open = (item.issueCounts as { open?: unknown } | undefined)?.open;
    ctx.note(`scan ${scanId} ${String(item.status ?? 'finished')}${typeof open === 'number' ? `, ${open} open issue${open === 1 ? '' : 's'}` : ''}`);
  },
};
