/**
 * `--ids-from FIFO` (src/output/read-file.ts): a FIFO with no writer was opened with a plain open(),
 * which holds a thread of libuv's pool until a writer comes; Ctrl-C and SIGTERM were caught, and
 * svc then hung (process.exit joins that pool) until SIGKILL. Now the FIFO is read through a pipe
 * stream: a writer may still come later, and a signal ends the wait at once.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, constants, openSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, testHost } from '../../helpers/host.js';
import { tempDir } from '../../helpers/temp.js';

const hasMkfifo = (() => { try { execFileSync('mkfifo', ['--version'], { stdio: 'ignore' }); return true; } catch { return false; } })();
const ENV = { SVC_BASE_URL: 'http://127.0.0.1:9', SVC_API_TOKEN_ID: 'id', SVC_API_TOKEN_SECRET: 'secret' };

/** Frees a reader stuck in open() (the fault): a writer that opens and closes at once, never blocking. */
function releaseReader(path: string): void {
  try { closeSync(openSync(path, constants.O_WRONLY | constants.O_NONBLOCK)); } catch { /* no reader waiting */ }
}

describe.skipIf(!hasMkfifo)('--ids-from a FIFO (skipped without mkfifo)', () => {
  it('with no writer: Ctrl-C ends the wait, exit 130, nothing sent', async () => {
    const fifo = join(tempDir('ids-fifo'), 'ids');
    execFileSync('mkfifo', [fifo]);
    const host = testHost({ env: ENV });
    const running = runCli(['issues', 'archive', '--ids-from', fifo, '--dry-run', '-o', 'json'], { host });
    await new Promise((r) => setTimeout(r, 300));
    host.abort('SIGINT');
    const ended = await Promise.race([running, new Promise<'hung'>((r) => setTimeout(() => r('hung'), 3000))]);
    releaseReader(fifo);
    if (ended === 'hung') await running;
    expect(ended).not.toBe('hung');
    expect(ended === 'hung' ? undefined : ended.code).toBe(130);
  });

  it('a writer that comes later: its ids are read', async () => {
    const fifo = join(tempDir('ids-fifo'), 'ids');
    execFileSync('mkfifo', [fifo]);
    const running = runCli(['issues', 'archive', '--ids-from', fifo, '--dry-run', '-o', 'json'], { env: ENV });
    await new Promise((r) => setTimeout(r, 200));
    writeFileSync(fifo, 'iss_1\niss_2\n');
    const r = await running;
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).map((q: { body: { issueId: string } }) => q.body.issueId)).toEqual(['iss_1', 'iss_2']);
  });
});
