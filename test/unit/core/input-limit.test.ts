/**
 * Inputs that never end (src/core/input-limit.ts): `cat /dev/zero | svc ... --input -`, `--input
 * /dev/zero`, `yes | svc auth login --with-secret-stdin` were read whole before any check, growing
 * memory until an internal error. Now the read stops at its limit: exit 2 naming the input and the limit.
 */
import { existsSync } from 'node:fs';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/host.js';
import { tempDir } from '../../helpers/temp.js';

const MiB = 1024 * 1024;
const ENV = { SVC_BASE_URL: 'http://127.0.0.1:9', SVC_API_TOKEN_ID: 'id', SVC_API_TOKEN_SECRET: 'not-a-word-s3cr3t' };

/**
 * Stdin that goes on (`yes`, `cat /dev/zero`): the same 64 KiB again and again. It ends only at twice
 * `limit` (+ 4 MiB), so that a regression fails the test instead of hanging it; `pulled` is what
 * svc asked of it.
 */
function endless(text: string, limit: number): Readable & { pulled: number } {
  const chunk = Buffer.from(text.repeat(Math.ceil(65536 / text.length)));
  const stream = Object.assign(new Readable({
    read() {
      stream.pulled += chunk.length;
      this.push(stream.pulled > 2 * limit + 4 * MiB ? null : chunk);
    },
  }), { pulled: 0 });
  return stream;
}

describe('stdin that never ends', () => {
  it.each([
    ['--input -', ['issues', 'search', '--input', '-', '--dry-run'], 16 * MiB, /^svc: error: stdin is above svc's limit of 16\.0 MiB on a request body/m],
    ['-F x=@-', ['issues', 'search', '-F', 'x=@-', '--dry-run'], 16 * MiB, /stdin is above svc's limit of 16\.0 MiB on a request body/],
    ['svc api --input -', ['api', 'issues/search', '--input', '-', '--dry-run'], 16 * MiB, /stdin is above svc's limit of 16\.0 MiB on a request body/],
    ['--ids-from -', ['issues', 'archive', '--ids-from', '-', '--org', 'o', '--dry-run'], 256 * MiB, /--ids-from \(stdin\) is above svc's limit of 256\.0 MiB on a list of ids/],
    ['auth login --with-secret-stdin', ['auth', 'login', '--token-id', 'abc', '--with-secret-stdin', '--base-url', 'http://127.0.0.1:9', '--no-verify'], 64 * 1024, /the secret on stdin \(--with-secret-stdin\) is above svc's limit of 64 KiB on a token secret/],
  ])('%s: exit 2 naming the limit, and stdin is read no further', async (_name, argv, limit, message) => {
    const stdin = endless('iss_1\n', limit);
    const r = await runCli(argv, { env: ENV, stdin });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/internal error/);
    expect(stdin.destroyed).toBe(true);
    expect(stdin.pulled).toBeLessThan(limit + MiB);
  });

  it('under the limit is read as before', async () => {
    const r = await runCli(['issues', 'search', '--input', '-', '--dry-run', '-o', 'json'], { env: ENV, stdin: '{"searchQuery":"x"}' });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).body).toMatchObject({ searchQuery: 'x' });
  });
});

describe.skipIf(!existsSync('/dev/zero'))('a device that never ends (/dev/zero; its size is 0 to stat)', () => {
  it.each([
    ['--input', ['issues', 'search', '--input', '/dev/zero', '--dry-run'], "--input from '/dev/zero' is above svc's limit of 16.0 MiB on a request body"],
    ['-F x=@FILE', ['issues', 'search', '-F', 'x=@/dev/zero', '--dry-run'], "-F x from '/dev/zero' is above svc's limit of 16.0 MiB on a request body"],
    ['--reason-from', ['issues', 'mark-false-positive', 'iss_1', '--reason-from', '/dev/zero', '--dry-run'], "--reason-from from '/dev/zero' is above svc's limit of 16.0 MiB"],
    ['--ids-from', ['issues', 'archive', '--ids-from', '/dev/zero', '--org', 'o', '--dry-run'], "--ids-from /dev/zero is above svc's limit of 256.0 MiB on a list of ids"],
  ])('%s /dev/zero: exit 2 naming it and the limit', async (_name, argv, message) => {
    const r = await runCli(argv, { env: ENV, cwd: tempDir('dev-zero-') });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(message);
  });
});
