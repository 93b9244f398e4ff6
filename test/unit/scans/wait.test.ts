import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { Context } from '../../../src/context.js';
import {
  HEARTBEAT_MS, ScanFailedError, WaitTimeoutError, findScan, prepareWait, reportScan, scanState, startedScanIds, waitForScan,
} from '../../../src/scans/wait.js';
import { ServerError, UnauthorizedError } from '../../../src/http/api-errors.js';
import { InterruptedError, UsageError } from '../../../src/core/errors.js';
import { startProgress } from '../../../src/terminal/progress.js';
import { Doubts } from '../../../src/answers/doubts.js';

/** A Context with a fake clock: sleep() moves time on at once. Polls answer from `answers` in turn. */
function fakeCtx(answers: Array<unknown | Error>, o: { abortAfterPolls?: number } = {}) {
  let clock = 0;
  const notes: string[] = [];
  const bodies: unknown[] = [];
  const controller = new AbortController();
  let i = 0;
  const ctx = {
    io: { stdout: new PassThrough(), stderr: new PassThrough(), stdin: new PassThrough(), stdoutIsTTY: false, stderrIsTTY: false, stdinIsTTY: false },
    env: {}, globals: {}, signal: controller.signal, doubts: new Doubts('bulk'),
    now: () => clock,
    sleep: async (ms: number, signal?: AbortSignal) => {
      if (signal?.aborted) throw signal.reason;
      clock += ms;
    },
    note: (l: string) => notes.push(`${clock / 1000}s ${l}`),
    warn: (l: string) => notes.push(`${clock / 1000}s warning: ${l}`),
    progress: (text: string) => startProgress(ctx, text),
    client: async () => ({
      call: async (_path: string, body: unknown) => {
        bodies.push(body);
        clock += 100;
        if (o.abortAfterPolls !== undefined && i >= o.abortAfterPolls) controller.abort('SIGINT');
        const a = answers[Math.min(i++, answers.length - 1)];
        if (a instanceof Error) throw a;
        return a;
      },
      close: async () => {},
    }),
  } as unknown as Context;
  return { ctx, notes, bodies, polls: () => i };
}

const list = (item: Record<string, unknown>) => ({ codeScans: [{ scanId: 's1', ...item }], totalCount: 1 });
const settings = { pollMs: 10_000, timeoutMs: 600_000 };

describe('scanState', () => {
  it('reads done, failed and running from the status, flags and errorMessage', () => {
    expect(scanState({ status: 'completed' })).toBe('done');
    expect(scanState({ status: 'Finished' })).toBe('done');
    expect(scanState({ status: 'completed', finished: true, codeScanFinished: true })).toBe('done');
    expect(scanState({ finished: true })).toBe('done');
    expect(scanState({ status: 'failed' })).toBe('failed');
    expect(scanState({ status: 'ERROR' })).toBe('failed');
    expect(scanState({ status: 'canceled' })).toBe('failed');
    // A completed scan with a message: done (inference: a warning about part of it, answers/checks.ts scan-message-done).
    expect(scanState({ status: 'completed', errorMessage: '1 file skipped' })).toBe('done');
    expect(scanState({ status: 'completed', finished: true, errorMessage: '1 file skipped' })).toBe('done');
    // A message where neither the word nor the flags say done: failed.
    expect(scanState({ status: 'running', errorMessage: 'clone failed' })).toBe('failed');
    expect(scanState({ errorMessage: 'clone failed' })).toBe('failed');
    expect(scanState({ status: 'succeeded', finished: false, errorMessage: 'clone failed' })).toBe('failed');
    expect(scanState({ status: 'running', finished: false, errorMessage: '' })).toBe('running');
    expect(scanState({ status: 'queued' })).toBe('running');
  });

  it('a common word for done is done unless a flag says false (inference, warned)', () => {
    for (const w of ['complete', 'Done', 'succeeded', 'SUCCESS', 'successful']) expect(scanState({ status: w }), w).toBe('done');
    expect(scanState({ status: 'succeeded', finished: true })).toBe('done');
    expect(scanState({ status: 'done', codeScanFinished: true, finished: true })).toBe('done');
    expect(scanState({ status: 'succeeded', finished: false })).toBe('running');
    expect(scanState({ status: 'done', finished: true, codeScanFinished: false })).toBe('running');
    const doubts = new Doubts('gate');
    expect(reportScan({ status: 'succeeded' }, 'gate: scan s1', doubts.report)).toBe('done');
    expect(doubts.found().map((k) => [k.id, k.action, k.details])).toEqual([['scan-word-done', 'warn', ["status 'succeeded': taken as done (inference: a common word for done)"]]]);
  });

  it('a word svc does not know: the finished flags say what it means; without them it is unknown (exit 7, never 8)', () => {
    expect(scanState({ status: 'ended', finished: true })).toBe('done');
    expect(scanState({ status: 'ended', finished: false })).toBe('running');
    expect(scanState({ status: 'ended' })).toBe('unknown');
    expect(scanState({ status: 'exploded' })).toBe('unknown');
    expect(scanState({})).toBe('unknown');
  });

  it('reports the doubts a record raises: an unknown word refused, a known-by-its-flags one and a completed scan\'s message warned', () => {
    const doubts = new Doubts('gate');
    expect(reportScan({ status: 'succeeded', finished: true, errorMessage: 'x' }, 'gate: scan s1', doubts.report)).toBe('done');
    expect(doubts.found().map((k) => [k.id, k.action])).toEqual([['scan-word-done', 'warn'], ['scan-message-done', 'warn']]);
    expect(() => reportScan({ status: 'exploded' }, 'gate: scan s1', doubts.report)).toThrow(/status 'exploded' and no finished flag/);
  });
});

describe('scanState: status and finished-flags that disagree are not done (issue 21, class 3)', () => {
  it('reads a contradiction as still running', () => {
    expect(scanState({ status: 'running', codeScanFinished: true })).toBe('running');
    expect(scanState({ status: 'running', finished: true })).toBe('running');
    expect(scanState({ status: 'completed', finished: false })).toBe('running');
    expect(scanState({ status: 'completed', codeScanFinished: false })).toBe('running');
    expect(scanState({ status: 'finished', finished: true, codeScanFinished: false })).toBe('running');
    expect(scanState({ status: 'completed', finished: 'yes' })).toBe('running');
    expect(scanState({ finished: true, codeScanFinished: false })).toBe('running');
  });
});

describe('scan wait helpers', () => {
  it('takes scanId, else id, from the start response', () => {
    expect(startedScanIds({ scanId: 'a', id: 'b' })).toEqual(['a']);
    expect(startedScanIds({ id: 'b' })).toEqual(['b']);
    expect(() => startedScanIds({ ok: true })).toThrow(/no scanId/);
    expect(() => startedScanIds(null)).toThrow(/no scanId/);
    // Several repositories: every scan listed, each once.
    expect(startedScanIds({ scanId: 'a', scanIds: ['a', 'b', 7, ''] })).toEqual(['a', 'b', '7']);
    expect(startedScanIds({ scanIds: ['c'] })).toEqual(['c']);
  });

  it('finds the scan in a list by scanId or id', () => {
    expect(findScan({ codeScans: [{ scanId: 'x' }, { scanId: 's1', status: 'running' }] }, 's1')).toEqual({ scanId: 's1', status: 'running' });
    expect(findScan({ codeScans: [{ id: 's1' }] }, 's1')).toEqual({ id: 's1' });
    // A record without an id is never "the" scan (issue 21, class 3).
    expect(() => findScan({ codeScans: [{ status: 'completed', finished: true }] }, 's1')).toThrow(/a scan without an id/);
    expect(findScan({ codeScans: [] }, 's1')).toBeUndefined();
    // Listed twice: which record is the scan cannot be told (exit 7), in either order, even when alike.
    const done = { scanId: 's1', status: 'completed', finished: true };
    const running = { scanId: 's1', status: 'running', finished: false };
    for (const codeScans of [[done, running], [running, done], [done, { id: 's1', status: 'completed' }]]) {
      expect(() => findScan({ codeScans }, 's1')).toThrow(/scan 's1' is listed 2 times/);
    }
    expect(() => findScan({}, 's1')).toThrow(/no 'codeScans' list/);
    // An answer for one scan id whose totalCount says more scans match than it holds: the rest is unread.
    expect(() => findScan({ codeScans: [done], totalCount: 2 }, 's1')).toThrow(/the answer is incomplete: it gives totalCount 2/);
    // Whole, with another scan beside it (the scanId filter ignored): the scan's one record, with a warning.
    const doubts = new Doubts('gate');
    expect(findScan({ codeScans: [done, { scanId: 'x' }], totalCount: 2 }, 's1', doubts.report)).toEqual(done);
    expect(doubts.found().map((k) => k.id)).toEqual(['scan-others']);
    expect(() => findScan({ codeScans: [], totalCount: 1 }, 's1')).toThrow(/incomplete/);
    expect(findScan({ codeScans: [done], totalCount: 1 }, 's1')).toEqual(done);
  });

  it('checks the wait flags before anything is sent', () => {
    expect(prepareWait({ wait: true })).toEqual({ pollMs: 10_000, timeoutMs: 3_600_000 });
    expect(prepareWait({ wait: true, pollInterval: '2.5', waitTimeout: '60' })).toEqual({ pollMs: 2500, timeoutMs: 60_000 });
    expect(() => prepareWait({ pollInterval: '5' })).toThrow(/--poll-interval only applies with --wait/);
    expect(() => prepareWait({ waitTimeout: '5' })).toThrow(/--wait-timeout only applies with --wait/);
    for (const bad of ['0', '-1', 'soon', '']) expect(() => prepareWait({ wait: true, waitTimeout: bad })).toThrow(UsageError);
    expect(() => prepareWait({ wait: true, pollInterval: '0.01' })).toThrow(/--poll-interval expects seconds from 0.1/);
  });
});

describe('waitForScan', () => {
  it('polls scans list with the scan id until the scan is done', async () => {
    const { ctx, bodies, notes } = fakeCtx([list({ status: 'queued' }), list({ status: 'running' }), list({ status: 'running' }), list({ status: 'completed' })]);
    const item = await waitForScan(ctx, 's1', 'org-1', settings);
    expect(item.status).toBe('completed');
    expect(bodies).toHaveLength(4);
    expect(bodies[0]).toEqual({ scanId: 's1', page: 1, pageSize: 10, organizationId: 'org-1' });
    // a line per status change, not per poll
    expect(notes.filter((l) => / scan s1: /.test(l)).map((l) => l.replace(/^\S+ /, ''))).toEqual([
      'scan s1: queued (0s)', 'scan s1: running (10s)', 'scan s1: completed (30s)',
    ]);
  });

  it('returns a failed scan (the caller exits 1)', async () => {
    const { ctx } = fakeCtx([list({ status: 'running' }), list({ status: 'failed', errorMessage: 'boom' })]);
    expect(await waitForScan(ctx, 's1', undefined, settings)).toMatchObject({ status: 'failed', errorMessage: 'boom' });
  });

  it('writes a heartbeat at most every 30 s while nothing changes (CI logs)', async () => {
    const answers = [...Array.from({ length: 30 }, () => list({ status: 'running' })), list({ status: 'completed' })];
    const { ctx, notes } = fakeCtx(answers);
    await waitForScan(ctx, 's1', undefined, { pollMs: 5000, timeoutMs: 600_000 });
    const beats = notes.filter((l) => l.includes('still running')).map((l) => parseFloat(l));
    expect(beats.length).toBeGreaterThanOrEqual(4);
    for (let k = 1; k < beats.length; k++) expect(beats[k] - beats[k - 1]).toBeGreaterThanOrEqual(HEARTBEAT_MS / 1000);
    expect(beats[1] - beats[0]).toBeLessThan(HEARTBEAT_MS / 1000 + 6);
  });

  it('times out with exit 6 and names --wait-timeout; the last poll is at the deadline', async () => {
    const { ctx, polls } = fakeCtx([list({ status: 'running' })]);
    const err = await waitForScan(ctx, 's1', undefined, { pollMs: 10_000, timeoutMs: 35_000 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WaitTimeoutError);
    expect((err as WaitTimeoutError).exitCode).toBe(6);
    expect((err as Error).message).toMatch(/timed out waiting for scan s1 after 35s \(--wait-timeout 35\); last status: running/);
    expect(polls()).toBe(5); // 0, 10, 20, 30, 35 (+ call time)
  });

  it('a scan that is not listed yet keeps being polled', async () => {
    const { ctx } = fakeCtx([{ codeScans: [] }, { codeScans: [] }, list({ status: 'finished' })]);
    expect((await waitForScan(ctx, 's1', undefined, settings)).status).toBe('finished');
  });

  it('waits out up to 3 failed polls in a row (network/5xx), then gives up', async () => {
    const busy = new ServerError('scans/list failed: HTTP 503', 503);
    const ok = fakeCtx([busy, busy, busy, list({ status: 'completed' })]);
    expect((await waitForScan(ok.ctx, 's1', undefined, settings)).status).toBe('completed');
    expect(ok.notes.filter((l) => l.includes('warning: checking scan s1 failed'))).toHaveLength(3);
    const bad = fakeCtx([busy, busy, busy, busy, list({ status: 'completed' })]);
    await expect(waitForScan(bad.ctx, 's1', undefined, settings)).rejects.toBe(busy);
  });

  it('does not wait out an auth failure', async () => {
    const denied = new UnauthorizedError('scans/list failed: HTTP 401', 401);
    const { ctx, polls } = fakeCtx([denied, list({ status: 'completed' })]);
    await expect(waitForScan(ctx, 's1', undefined, settings)).rejects.toBe(denied);
    expect(polls()).toBe(1);
  });

  it('stops at once when interrupted (exit 130)', async () => {
    const { ctx, polls } = fakeCtx([list({ status: 'running' })], { abortAfterPolls: 1 });
    const err = await waitForScan(ctx, 's1', undefined, settings).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InterruptedError);
    expect((err as InterruptedError).exitCode).toBe(130);
    expect(polls()).toBe(2);
  });

  it('ScanFailedError exits 1', () => {
    expect(new ScanFailedError('x', 'y').exitCode).toBe(1);
  });
});
