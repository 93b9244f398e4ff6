/**
 * Ctrl-C and SIGTERM: svc stops at once with 130 / 143, aborts the request in flight (the server
 * sees the connection close), and says so in one line.
 */
import { spawn } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BIN, cleanEnv } from '../helpers/run-svc.js';
import { startFakeServer, type FakeServer } from '../helpers/fake-server.js';

const SECRET = 'signal-secret-0c7d1e';
let server: FakeServer;
beforeEach(async () => { server = await startFakeServer(); });
afterEach(async () => { await server.close(); });

interface Ended { code: number | null; signal: NodeJS.Signals | null; stderr: string; stdout: string; afterSignalMs: number }

/** Start svc, send `signal` once `ready` resolves, and report how it ended. */
function interrupt(args: string[], signal: NodeJS.Signals, ready: () => Promise<unknown>, opts: { keepStdinOpen?: boolean } = {}): Promise<Ended> {
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
    ready().then(() => { sentAt = Date.now(); child.kill(signal); }, reject);
  });
}

/** Where svc makes no request there is nothing to wait for: give it time to start (it is then blocked on stdin). */
const started = () => new Promise((r) => setTimeout(r, 1000));

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
