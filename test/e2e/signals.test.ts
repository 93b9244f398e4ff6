/**
 * Ctrl-C and SIGTERM: svc stops at once with 130 / 143, aborts the request in flight (the server
 * sees the connection close), and says so in one line.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BIN, cleanEnv } from '../helpers/run-svc.js';
import { startFakeServer, type FakeRequest, type FakeServer } from '../helpers/fake-server.js';
import { tempDir } from '../helpers/temp.js';

const SECRET = 'signal-secret-0c7d1e';
let server: FakeServer;
beforeEach(async () => { server = await startFakeServer(); });
afterEach(async () => { await server.close(); });

interface Ended { code: number | null; signal: NodeJS.Signals | null; stderr: string; stdout: string; afterSignalMs: number }

/** Start svc, send `signal` once `ready` resolves, and report how it ended. */
function interrupt(args: string[], signal: NodeJS.Signals, ready: (pid: number) => Promise<unknown>, opts: { keepStdinOpen?: boolean } = {}): Promise<Ended> {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: cleanEnv({ SVC_BASE_URL: server.url, SVC_API_TOKEN_ID: 'id-0001', SVC_API_TOKEN_SECRET: SECRET }),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  if (!opts.keepStdinOpen) child.stdin.end();
  const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  return new Promise((resolve, reject) => {
    let sentAt = 0;
    child.on('error', reject);
    child.on('close', (code, sig) => {
      clearTimeout(killer);
      child.stdin.destroy();
      resolve({ code, signal: sig, stderr, stdout, afterSignalMs: Date.now() - sentAt });
    });
    ready(child.pid!).then(() => { sentAt = Date.now(); child.kill(signal); }, reject);
  });
}

/**
 * Where svc makes no request there is nothing to wait for: wait until it is blocked on stdin, i.e.
 * asleep with no CPU time spent for 300 ms (node catches SIGINT from its first milliseconds, so the
 * signal mask tells nothing). A fixed pause lost the race on a busy machine: the signal came before
 * svc's handler and killed node outright. Off Linux (no /proc), a pause of a second.
 */
async function started(pid: number): Promise<void> {
  const stat = `/proc/${pid}/stat`;
  if (!existsSync(stat)) return new Promise((r) => setTimeout(r, 1000));
  const end = Date.now() + 15_000;
  let last = '';
  let since = Date.now();
  while (Date.now() < end) {
    // Fields after the command name: state is the 1st, utime and stime the 12th and 13th.
    const text = readFileSync(stat, 'utf8');
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    const now = `${fields[0]} ${fields[11]} ${fields[12]}`;
    if (now !== last || fields[0] !== 'S') { last = now; since = Date.now(); }
    else if (Date.now() - since >= 300) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('svc did not settle (blocked on stdin) within 15 s');
}

describe('signals', () => {
  it('SIGINT during a request that never answers: exit 130 at once, the server sees the connection close', async () => {
    server.stub('/api/v1/issues/search', [{ kind: 'hang' }]);
    const r = await interrupt(['issues', 'search', '--org', 'o'], 'SIGINT', () => server.waitForRequests(1));
    expect(r.signal).toBeNull();
    expect(r.code).toBe(130);
    expect(r.afterSignalMs).toBeLessThan(2500);
    expect(r.stderr.trim().split('\n')).toEqual(['svc: error: interrupted by SIGINT']);
    const hung = await server.waitForHangUp();
    expect(hung.path).toBe('/api/v1/issues/search');
    expect(server.requests).toHaveLength(1);
    expect(r.stdout).toBe('');
  });

  it('SIGTERM during a mutation: exit 143, not retried', async () => {
    server.stub('/api/v1/issues/archive', [{ kind: 'hang' }]);
    const r = await interrupt(['issues', 'archive', 'iss_1', '--org', 'o'], 'SIGTERM', () => server.waitForRequests(1));
    expect(r.code).toBe(143);
    expect(r.stderr.trim().split('\n')).toEqual(['svc: error: interrupted by SIGTERM']);
    await server.waitForHangUp();
    expect(server.requests).toHaveLength(1);
  });

  it('SIGINT while waiting to retry (Retry-After: 30): exit 130 at once, no second request', async () => {
    server.stub('/api/v1/issues/search', [{ kind: 'status', status: 503, headers: { 'retry-after': '30' } }]);
    const r = await interrupt(['issues', 'search', '--org', 'o'], 'SIGINT', () => server.waitForRequests(1).then(() => new Promise((res) => setTimeout(res, 200))));
    expect(r.code).toBe(130);
    expect(r.afterSignalMs).toBeLessThan(2500);
    expect(r.stderr).toMatch(/retrying in 30\.0 s/);
    expect(r.stderr.trim().split('\n').pop()).toBe('svc: error: interrupted by SIGINT');
    expect(server.requests).toHaveLength(1);
  });

  it('SIGINT while reading the body from stdin: exit 130, nothing sent', async () => {
    const r = await interrupt(['issues', 'search', '--input', '-'], 'SIGINT', started, { keepStdinOpen: true });
    expect(r.code).toBe(130);
    expect(r.afterSignalMs).toBeLessThan(2500);
    expect(server.requests).toHaveLength(0);
  });

  // A plain open() of a FIFO with no writer held a thread (readFileSync: the main one) that process.exit
  // waits for: the signal was never acted on, and only the killer's SIGKILL (10 s) ended svc.
  const hasMkfifo = (() => { try { execFileSync('mkfifo', ['--version'], { stdio: 'ignore' }); return true; } catch { return false; } })();
  it.skipIf(!hasMkfifo)('SIGTERM while --input is a FIFO with no writer: exit 143, nothing sent (skipped without mkfifo)', async () => {
    const fifo = join(tempDir('svc-fifo-'), 'body');
    execFileSync('mkfifo', [fifo]);
    const r = await interrupt(['issues', 'search', '--input', fifo, '--org', 'o'], 'SIGTERM', started);
    expect(r.signal, r.stderr).toBeNull();
    expect(r.code, r.stderr).toBe(143);
    expect(r.stderr.trim().split('\n')).toEqual(['svc: error: interrupted by SIGTERM']);
    expect(server.requests).toHaveLength(0);
  });

  it('never prints the secret on the way out', async () => {
    server.stub('/api/v1/issues/search', [{ kind: 'hang' }]);
    const r = await interrupt(['issues', 'search', '--org', 'o', '--verbose', '--debug'], 'SIGINT', () => server.waitForRequests(1));
    expect(r.code).toBe(130);
    expect(r.stdout + r.stderr).not.toContain(SECRET);
  });
});

/**
 * A bulk run on a real process, stdout a pipe (read slowly when asked: a reader that is alive but
 * not fast), with signals sent as `steps` say. Issue 36.8.
 */
interface BulkRun extends Ended { records: Array<{ id: string; outcome: string; error?: string }>; failedTo: string[] }

function bulkRun(ids: string[], extra: string[], steps: Array<(r: { stderr: () => string }) => Promise<NodeJS.Signals>>, opts: { slowReader?: boolean; closeStdout?: boolean; pauseAfterSignalMs?: number } = {}): Promise<BulkRun> {
  const dir = tempDir('svc-bulk-signal-');
  writeFileSync(join(dir, 'ids.txt'), ids.join('\n') + '\n');
  const child = spawn(process.execPath, [BIN, 'issues', 'archive', '--ids-from', join(dir, 'ids.txt'), '--org', 'o', '-o', 'ndjson', '--failed-to', join(dir, 'failed.txt'), ...extra], {
    env: cleanEnv({ SVC_BASE_URL: server.url, SVC_API_TOKEN_ID: 'id-0001', SVC_API_TOKEN_SECRET: SECRET }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  // A reader that has gone away: svc's first write to stdout fails with EPIPE.
  if (opts.closeStdout) child.stdout.destroy();
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    stdout += d;
    // Alive, but slow: a pause after every chunk, so svc's writes queue up behind the pipe.
    if (opts.slowReader) { child.stdout.pause(); setTimeout(() => child.stdout.resume(), 20); }
  });
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const killer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  return new Promise((resolve, reject) => {
    let sentAt = 0;
    child.on('error', reject);
    child.on('close', (code, sig) => {
      clearTimeout(killer);
      const failed = join(dir, 'failed.txt');
      resolve({
        code, signal: sig, stderr, stdout, afterSignalMs: Date.now() - sentAt,
        records: stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l)),
        failedTo: existsSync(failed) ? readFileSync(failed, 'utf8').split('\n').filter(Boolean) : [],
      });
    });
    void (async () => {
      for (const step of steps) {
        const sig = await step({ stderr: () => stderr });
        sentAt = Date.now();
        child.kill(sig);
        // A reader that is alive but stops for a while (a busy machine, work per line), then reads on.
        if (opts.pauseAfterSignalMs) { child.stdout.pause(); setTimeout(() => child.stdout.resume(), opts.pauseAfterSignalMs); }
      }
    })().catch(reject);
  });
}

const ids = (n: number) => Array.from({ length: n }, (_, i) => `iss_${String(i + 1).padStart(4, '0')}`);
const until = async (test: () => boolean, what: string) => {
  const end = Date.now() + 15_000;
  while (!test()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};
const idOf = (r: FakeRequest) => (r.body as { issueId: string }).issueId;

describe('signals in the middle of a bulk run (issue 36.8)', () => {
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    it(`${sig} mid-way through 1,000 ids, stdout a pipe read slowly: every record reaches it, then the summary and --failed-to`, async () => {
      server.stub('/api/v1/issues/archive', { json: { ok: true }, delayMs: 2 });
      const given = ids(1000);
      const r = await bulkRun(given, [], [() => server.waitForRequests(100).then(() => sig)], { slowReader: true });
      expect(r.code, r.stderr).toBe(sig === 'SIGINT' ? 130 : 143);
      // One record per id, in the order given: none lost on the way out.
      expect(r.records.map((x) => x.id)).toEqual(given);
      const done = r.records.filter((x) => x.outcome === 'done').map((x) => x.id);
      const answered = new Set(server.requests.filter((q) => q.status === 200).map(idOf));
      for (const id of done) expect(answered.has(id)).toBe(true);
      if (sig === 'SIGINT') {
        // The calls in flight finished: every call sent has its outcome.
        expect(done).toHaveLength(server.requests.length);
      } else {
        // SIGTERM cut the calls in flight (at most the 4 at once): those say their outcome is unknown
        // (one may have been cut before the server had all of it).
        const cut = r.records.filter((x) => x.error?.startsWith('interrupted while in flight'));
        expect(cut.length).toBeLessThanOrEqual(4);
        expect(done.length + cut.length).toBeGreaterThanOrEqual(server.requests.length);
      }
      expect(done.length).toBeGreaterThanOrEqual(sig === 'SIGINT' ? 100 : 96);
      expect(done.length).toBeLessThan(1000);
      // --failed-to: exactly the ids not done, for --ids-from.
      expect(r.failedTo).toEqual(given.filter((id) => !done.includes(id)));
      const last = r.stderr.trim().split('\n').pop()!;
      expect(last).toMatch(new RegExp(`^svc: error: ${done.length} archived; .*not sent \\(interrupted\\).*--ids-from `));
    }, 30_000);
  }

  it('a reader that stops for 2.2 s after the signal, then reads on, still gets all 5,000 records (a second without reading is not a stopped reader)', async () => {
    server.stub('/api/v1/issues/archive', { json: { ok: true }, delayMs: 2 });
    // 5,000 records (~600 kB): more than the pipe and the reader's buffers hold, so svc is still
    // writing when the reader stops, and must wait through the pause.
    const given = ids(5000);
    const r = await bulkRun(given, [], [() => server.waitForRequests(100).then(() => 'SIGINT' as const)], { pauseAfterSignalMs: 2200 });
    expect(r.code, r.stderr).toBe(130);
    expect(r.records.map((x) => x.id)).toEqual(given);
    expect(r.afterSignalMs).toBeGreaterThanOrEqual(2200);
  }, 30_000);

  it('a reader gone before the records: --failed-to is written and the exit code is the run\'s, not 0', async () => {
    server.stub('/api/v1/issues/archive', (req: FakeRequest) => (idOf(req) === 'iss_0007' ? { status: 404, json: { error: 'no such issue' } } : { json: { ok: true } }));
    const r = await bulkRun(ids(50), [], [], { closeStdout: true });
    expect(r.code, r.stderr).toBe(4);
    expect(r.failedTo).toEqual(['iss_0007']);
  }, 30_000);

  it('SIGINT while the calls in flight take longer than the grace period: they finish and are recorded', async () => {
    server.stub('/api/v1/issues/archive', { json: { ok: true }, delayMs: 1800 });
    const given = ids(8);
    const r = await bulkRun(given, ['--concurrency', '4'], [() => server.waitForRequests(4).then(() => 'SIGINT')]);
    expect(r.code, r.stderr).toBe(130);
    expect(r.stderr).toContain('waiting for the 4 calls in flight to answer');
    expect(r.records.map((x) => [x.id, x.outcome])).toEqual(given.map((id, i) => [id, i < 4 ? 'done' : 'not-sent']));
    expect(r.failedTo).toEqual(given.slice(4));
    expect(server.requests).toHaveLength(4);
  }, 30_000);

  it('a second SIGINT stops the calls in flight; their records say the outcome is unknown', async () => {
    server.stub('/api/v1/issues/archive', [{ kind: 'hang' }]);
    const given = ids(6);
    const r = await bulkRun(given, ['--concurrency', '2'], [
      () => server.waitForRequests(2).then(() => 'SIGINT'),
      async (p) => { await until(() => p.stderr().includes('in flight to answer'), 'the waiting note'); return 'SIGINT'; },
    ]);
    expect(r.code, r.stderr).toBe(130);
    expect(r.afterSignalMs).toBeLessThan(2500);
    // The two cut off in flight reached the service: their outcome is unknown, not "not sent".
    expect(r.records.map((x) => x.outcome)).toEqual(['unknown', 'unknown', 'not-sent', 'not-sent', 'not-sent', 'not-sent']);
    expect(r.records.slice(0, 2).map((x) => x.error)).toEqual(Array(2).fill('interrupted while in flight: it may or may not have been applied'));
    expect(r.failedTo).toEqual(given);
    expect(r.stderr.trim().split('\n').pop()).toMatch(/^svc: error: 0 archived; 2 cut off in flight \(may or may not have been applied\); 4 not sent \(interrupted\)/);
  }, 30_000);

  it('SIGINT during a Retry-After wait ends the wait at once, with the records, the summary and --failed-to', async () => {
    server.stub('/api/v1/issues/archive', [{ json: { ok: true } }, { json: { ok: true } }, { json: { ok: true } }, { kind: 'status', status: 429, json: { error: 'slow down' }, headers: { 'retry-after': '30' } }]);
    const given = ids(10);
    const r = await bulkRun(given, ['--concurrency', '1'], [
      async (p) => { await until(() => /retrying in 30\.0 s/.test(p.stderr()), 'the retry notice'); return 'SIGINT'; },
    ]);
    expect(r.code, r.stderr).toBe(130);
    expect(r.afterSignalMs).toBeLessThan(2500);
    expect(r.records.map((x) => x.outcome)).toEqual([...Array(3).fill('done'), ...Array(7).fill('not-sent')]);
    expect(r.records[3].error).toBe('interrupted while waiting to send it again: the service had not taken it');
    expect(r.failedTo).toEqual(given.slice(3));
    expect(r.stderr.trim().split('\n').pop()).toMatch(/^svc: error: 3 archived; 7 not sent \(interrupted\)/);
    expect(server.requests).toHaveLength(4);
  }, 30_000);
});
