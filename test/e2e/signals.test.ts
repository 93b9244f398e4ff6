/**
 * Ctrl-C and SIGTERM: svc stops at once with 130 / 143, aborts the request in flight (the server
 * sees the connection close), and says so in one line.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BIN, cleanEnv } from '../helpers/run-svc.js';
import { startFakeServer, type FakeServer } from '../helpers/fake-server.js';

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

  it('never prints the secret on the way out', async () => {
    server.stub('/api/v1/issues/search', [{ kind: 'hang' }]);
    const r = await interrupt(['issues', 'search', '--org', 'o', '--verbose', '--debug'], 'SIGINT', () => server.waitForRequests(1));
    expect(r.code).toBe(130);
    expect(r.stdout + r.stderr).not.toContain(SECRET);
  });
});
