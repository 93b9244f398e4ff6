/** main() in-process: an unexpected failure is exit 70 with one line and no secret (no stack without --debug). */
import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { main } from '../../../src/cli.js';
import type { Host } from '../../../src/core/host.js';
import { tempDir } from '../../helpers/temp.js';

const SECRET = 'internal-path-secret-0123456789';

function host(extraArgsDebug = false): { host: Host; stderr: () => string } {
  let err = '';
  const stdout = new Writable({ write(_c, _e, done) { done(new Error(`stdout is gone (${SECRET})`)); } });
  stdout.write = (() => { throw new Error(`stdout is gone (${SECRET})`); }) as typeof stdout.write;
  const stderr = new Writable({ write(c, _e, done) { err += String(c); done(); } });
  void extraArgsDebug;
  return {
    host: {
      io: { stdout, stderr, stdin: new PassThrough(), stdoutIsTTY: false, stderrIsTTY: false, stdinIsTTY: false },
      env: { SVC_CONFIG_DIR: tempDir('svc-test-cfg-'), SVC_BASE_URL: 'http://127.0.0.1:9', SVC_API_TOKEN_ID: 'tid', SVC_API_TOKEN_SECRET: SECRET },
      cwd: process.cwd(), platform: process.platform, version: '0.0.0-test', nodeVersion: process.version,
      now: () => 0, random: () => 0.5, sleep: async () => {}, signal: new AbortController().signal,
    },
    stderr: () => err,
  };
}

describe('unexpected failures', () => {
  it('exit 70 with one line naming the failure, the secret scrubbed, no stack', async () => {
    const h = host();
    const code = await main(['api', 'issues/search', '--dry-run'], h.host);
    expect(code).toBe(70);
    const lines = h.stderr().split('\n').filter(Boolean);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^svc: internal error: stdout is gone \(\[redacted\]\) \(this is a bug; run again with --debug/);
    expect(h.stderr()).not.toContain(SECRET);
  });

  it('--debug adds the stack, still without the secret', async () => {
    const h = host();
    const code = await main(['api', 'issues/search', '--dry-run', '--debug'], h.host);
    expect(code).toBe(70);
    expect(h.stderr()).toMatch(/\n\s+at /);
    expect(h.stderr()).not.toContain(SECRET);
  });
});
