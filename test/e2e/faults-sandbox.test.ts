/**
 * The fault suite against the sandbox: each of its fault modes (latency, 500/502/503, 429 with
 * Retry-After, reset connections, truncated and invalid JSON bodies, a body stalled past --timeout)
 * driven in-process through main(), for a read (`issues search`) and a change (`issues archive`).
 * Each case checks the exit code, how many requests the sandbox received and handled (a read is
 * retried; a change reaches the service at most once), whether the change was applied, and one
 * clear error line. The sandbox's request counter is the witness.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { FaultKind } from '../../src/sandbox/index.js';
import { startGateSandbox, type GateSandbox } from '../helpers/sandbox-scope.js';

const READ = ['issues', 'search', '--types', 'open', '--page-size', '5'];
const READ_PATH = '/api/v1/issues/search';
const WRITE_PATH = '/api/v1/issues/archive';

interface FaultCase {
  name: string;
  fault?: FaultKind;
  latencyMs?: number;
  /** Switch the fault off once the first faulted answer has been sent (status faults only). */
  once?: boolean;
  write?: boolean;
  args?: string[];
  code: number;
  received: number;
  /** Requests that reached the handler (unchecked where a latency fault is still pending). */
  handled?: number;
  /** For a change: whether the issue ended up archived. */
  applied?: boolean;
  warnings?: number;
  /** The last stderr line must match. */
  says?: RegExp;
}

const CASES: FaultCase[] = [
  { name: 'latency under --timeout (read)', latencyMs: 300, args: ['--timeout', '5'], code: 0, received: 1, handled: 1, warnings: 0 },
  { name: 'latency past --timeout (read): retried, then exit 6', latencyMs: 60_000, args: ['--timeout', '0.4', '--retries', '1'], code: 6, received: 2, warnings: 1, says: /no response from .* within 0\.4 s \(--timeout 0\.4\)/ },
  { name: 'latency past --timeout (change): sent once', latencyMs: 60_000, write: true, args: ['--timeout', '0.4'], code: 6, received: 1, warnings: 0, says: /within 0\.4 s.*may still have taken effect/ },
  { name: '500 every time (read): 3 tries, exit 6', fault: '500', code: 6, received: 3, handled: 0, warnings: 2, says: /HTTP 500: sandbox fault: internal server error \(gave up after 3 tries\)/ },
  { name: '502 every time (read, --retries 1)', fault: '502', args: ['--retries', '1'], code: 6, received: 2, handled: 0, warnings: 1, says: /HTTP 502/ },
  { name: '503 with Retry-After once, then an answer (read)', fault: '503', once: true, code: 0, received: 2, handled: 1, warnings: 1 },
  { name: '500 (change): not repeated, not applied', fault: '500', write: true, code: 6, received: 1, handled: 0, applied: false, warnings: 0, says: /HTTP 500.*may or may not have been made/ },
  { name: '503 with Retry-After (change): still not repeated', fault: '503', write: true, code: 6, received: 1, handled: 0, applied: false, warnings: 0 },
  { name: '429 with Retry-After once, then an answer (read)', fault: '429', once: true, code: 0, received: 2, handled: 1, warnings: 1 },
  { name: '429 every time (read, --retries 1): exit 6', fault: '429', args: ['--retries', '1'], code: 6, received: 2, handled: 0, says: /rate-limited: retry later \(HTTP 429, Retry-After: 1 s\): sandbox fault: rate limit exceeded/ },
  { name: '429 once (change): refused, so retried, applied once', fault: '429', once: true, write: true, code: 0, received: 2, handled: 1, applied: true, warnings: 1 },
  { name: 'connection reset every time (read, --retries 1)', fault: 'reset', args: ['--retries', '1'], code: 6, received: 2, handled: 0, warnings: 1, says: /closed before the whole response arrived/ },
  { name: 'connection reset (change): not repeated, not applied', fault: 'reset', write: true, code: 6, received: 1, handled: 0, applied: false, warnings: 0, says: /may have reached the service and taken effect/ },
  { name: 'truncated body every time (read, --retries 1)', fault: 'truncated', args: ['--retries', '1'], code: 6, received: 2, handled: 2, warnings: 1, says: /closed before the whole response arrived/ },
  { name: 'truncated body (change): applied, answer lost, not repeated', fault: 'truncated', write: true, code: 6, received: 1, handled: 1, applied: true, warnings: 0, says: /may have reached the service and taken effect/ },
  { name: 'invalid JSON (read): exit 7, not repeated', fault: 'invalid-json', code: 7, received: 1, handled: 1, warnings: 0, says: /not valid JSON/ },
  { name: 'invalid JSON (change): exit 7, applied once', fault: 'invalid-json', write: true, code: 7, received: 1, handled: 1, applied: true, warnings: 0 },
  { name: 'body stalled past --timeout (read, --retries 1)', fault: 'slow-body', args: ['--timeout', '0.4', '--retries', '1'], code: 6, received: 2, handled: 2, warnings: 1, says: /response body .* did not arrive within 0\.4 s \(--timeout 0\.4\)/ },
  { name: 'body stalled past --timeout (change): applied, not repeated', fault: 'slow-body', write: true, args: ['--timeout', '0.4'], code: 6, received: 1, handled: 1, applied: true, warnings: 0, says: /did not arrive within 0\.4 s.*may still have taken effect/ },
];

const sandboxes: GateSandbox[] = [];
afterAll(async () => { await Promise.all(sandboxes.splice(0).map((s) => s.close())); });

async function sandbox(): Promise<GateSandbox> {
  const sb = await startGateSandbox({ seed: 5, repos: 3, issues: 40 });
  sandboxes.push(sb);
  return sb;
}

describe.concurrent(`fault suite against the sandbox (${CASES.length} cases)`, () => {
  it.each(CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const sb = await sandbox();
    const target = sb.state.issues.find((i) => i.status === 'open' && sb.state.repo(i.repositoryId)?.organizationId === sb.organizationId)!;
    const path = c.write ? WRITE_PATH : READ_PATH;
    if (c.once) sb.onLine = (line) => { if (line.startsWith(`POST ${path} ${c.fault} `)) sb.setFaults({ fault: null }); };
    sb.setFaults({ fault: c.fault ?? null, latencyMs: c.latencyMs ?? 0 });

    // svc's waits between tries run on the test's clock (they end at once and are recorded); the
    // sandbox's faults and --timeout are real time.
    const r = await sb.run([...(c.write ? ['issues', 'archive', target.id] : READ), '-o', 'json', ...(c.args ?? [])], { clock: 'fake' });
    const count = sb.requests()[path];
    const lines = r.stderr.split('\n').filter((l) => l.trim());
    expect({ code: r.code, received: count.received }, r.stderr).toEqual({ code: c.code, received: c.received });
    if (c.handled !== undefined) expect(count.handled).toBe(c.handled);
    if (c.write) expect(count.handled).toBeLessThanOrEqual(1);
    if (c.applied !== undefined) expect(target.status === 'archived').toBe(c.applied);
    if (c.warnings !== undefined) expect(lines.filter((l) => l.includes('retrying in'))).toHaveLength(c.warnings);
    // Each retry waited as long as its warning said (the sandbox's Retry-After: 1, else the backoff).
    const said = lines.map((l) => /retrying in (\d+\.\d) s/.exec(l)?.[1]).filter((x) => x !== undefined).map(Number);
    expect(r.host.sleeps.map((ms) => Number((ms / 1000).toFixed(1))), r.stderr).toEqual(said);
    if (c.code === 0) {
      expect(JSON.parse(r.stdout)).toEqual(c.write ? { ok: true } : expect.objectContaining({ totalCount: expect.any(Number) }));
    } else {
      expect(r.stdout).toBe('');
      expect(lines.filter((l) => l.startsWith('svc: error:'))).toHaveLength(1);
      expect(lines.at(-1)).toMatch(/^svc: error: /);
      if (c.says) expect(lines.at(-1)).toMatch(c.says);
      expect(r.stderr).not.toContain(sb.tokenSecret);
      expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
    }
  });
});

describe('the sandbox request counter', () => {
  it('counts received, refused and handled requests per path; GET /__sandbox/requests shows the same', async () => {
    const sb = await sandbox();
    expect(sb.requests()).toEqual({});
    await sb.call(READ_PATH, { pageSize: 1 });
    sb.setFaults({ fault: '500' });
    await sb.call(READ_PATH, { pageSize: 1 });
    sb.setFaults({ fault: null });
    await sb.call('/api/v1/issues/archive', {}); // 400: missing issueId, but it reached the handler
    await sb.call('/api/v1/no/such-operation', {}); // not an operation: not counted
    const expected = { [READ_PATH]: { received: 2, handled: 1, refused: 1 }, [WRITE_PATH]: { received: 1, handled: 1, refused: 0 } };
    expect(sb.requests()).toEqual(expected);
    expect((await sb.call('/__sandbox/requests', undefined, { method: 'GET' })).json).toEqual(expected);
    expect((await sb.call('/__sandbox/requests', {})).status).toBe(405);
  });
});
