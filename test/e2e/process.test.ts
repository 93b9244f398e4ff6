/**
 * What only the real process shows (most tests run main() in-process): the exit code the shell
 * sees, a reader that goes away (`svc ... | head`), and a stdout that cannot be written (/dev/full).
 */
import { spawn } from 'node:child_process';
import { openSync, closeSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BIN, cleanEnv } from '../helpers/run-svc.js';
import { useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox({ issues: 3000, repos: 4 });

describe('exit codes of the real process', () => {
  it.each([
    { name: 'success', args: ['orgs', 'list', '-o', 'json'], env: {}, code: 0 },
    { name: 'a usage error', args: ['issues', 'search', '--bogus'], env: {}, code: 2 },
    { name: 'a wrong token', args: ['orgs', 'list'], env: { SVC_API_TOKEN_SECRET: 'wrong-secret' }, code: 3 },
    { name: 'an unreachable service', args: ['orgs', 'list', '--retries', '0'], env: { SVC_BASE_URL: 'http://127.0.0.1:9' }, code: 6 },
  ])('$name -> exit $code', async ({ args, env, code }) => {
    const r = await sb.svc(args, { env });
    expect(r.signal).toBeNull();
    expect(r.code, r.stderr).toBe(code);
    if (code !== 0) expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe('output that cannot be written', () => {
  it('the reader goes away mid-listing (`| head -n 1`): the listing stops quietly, exit 0', async () => {
    const child = spawn(process.execPath, [BIN, 'issues', 'search', '--all', '--page-size', '100', '-o', 'ndjson'], { env: cleanEnv(sb.env), stdio: ['ignore', 'pipe', 'pipe'] });
    let first = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      first ||= d;
      child.stdout.destroy();
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    expect(JSON.parse(first.split('\n')[0]).id).toEqual(expect.any(String));
    expect(stderr).toBe('');
    expect(code).toBe(0);
    // It stopped early rather than reading all 30 pages for nobody.
    expect(sb.requests()['/api/v1/issues/search'].received).toBeLessThan(30);
  });

  it('stdout on a full disk (/dev/full): exit 9 and one line naming the error, no stack trace', async () => {
    const fd = openSync('/dev/full', 'w');
    try {
      const child = spawn(process.execPath, [BIN, 'completion', 'bash'], { env: cleanEnv(sb.env), stdio: ['ignore', fd, 'pipe'] });
      let stderr = '';
      child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
      expect(code).toBe(9);
      expect(stderr).not.toMatch(/\n\s+at /);
      expect(stderr).toMatch(/^svc: error: cannot write the output to stdout: no space left on the device \(ENOSPC\)[^\n]*\n$/);
    } finally {
      closeSync(fd);
    }
  });
});
