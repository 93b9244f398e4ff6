/**
 * node run with --jitless has no WebAssembly, which undici's HTTP parser is: svc says so before it
 * sends anything (exit 2, one line), instead of a connection failure after every retry (exit 6).
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, cleanEnv } from '../helpers/run-svc.js';
import { startFakeServer, type FakeServer } from '../helpers/fake-server.js';
import { tempDir } from '../helpers/temp.js';

describe('a node without WebAssembly (--jitless)', () => {
  let server: FakeServer;
  let cache: string;
  beforeAll(async () => {
    server = await startFakeServer({ fallback: { json: { issues: [], totalCount: 0 } } });
    // (Another V8 flag: bin/svc.js keeps a code cache for it, here and not in the user's folder.)
    cache = join(tempDir('svc-jitless-'), 'cache');
  });
  afterAll(async () => { await server.close(); });

  const run = (args: string[]) => promisify(execFile)(process.execPath, [BIN, ...args], {
    env: cleanEnv({ NODE_OPTIONS: '--jitless', XDG_CACHE_HOME: cache, SVC_BASE_URL: server.url, SVC_API_TOKEN_ID: 'id-1', SVC_API_TOKEN_SECRET: 'secret-1' }),
    encoding: 'utf8',
  }).then(() => ({ code: 0, stderr: '' }), (e: { code: number; stderr: string }) => e);

  it('an API call: exit 2 and what to do, nothing sent, no retries', async () => {
    const r = await run(['issues', 'search', '-o', 'json', '--retries', '2']);
    expect(r.code).toBe(2);
    const ours = r.stderr.split('\n').filter((l) => l.startsWith('svc:') || l.startsWith('warning:'));
    expect(ours).toEqual([expect.stringMatching(/^svc: error: this node runs without WebAssembly \(--jitless.*nothing was sent; run svc without that flag/)]);
    expect(server.requests).toEqual([]);
  });

  it('what sends nothing still works: --dry-run', async () => {
    const r = await promisify(execFile)(process.execPath, [BIN, 'issues', 'search', '--dry-run', '-o', 'json'], {
      env: cleanEnv({ NODE_OPTIONS: '--jitless', XDG_CACHE_HOME: cache }), encoding: 'utf8',
    });
    expect(r.stdout).toContain('/api/v1/issues/search');
  });
});
