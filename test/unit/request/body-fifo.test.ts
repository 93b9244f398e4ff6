/**
 * `--input FIFO`, `--reason-from FIFO` and `-F key=@FIFO` (src/request/body.ts): read with a plain
 * readFileSync, a FIFO with no writer held svc's one thread in open(); Ctrl-C and SIGTERM were never
 * acted on (only SIGKILL ended svc). They now go through the reader of `--ids-from`
 * (src/output/read-file.ts): a writer may come later, and a signal ends the wait with 130/143.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli, testHost } from '../../helpers/host.js';
import { tempDir } from '../../helpers/temp.js';

const hasMkfifo = (() => { try { execFileSync('mkfifo', ['--version'], { stdio: 'ignore' }); return true; } catch { return false; } })();
const ENV = { SVC_BASE_URL: 'http://127.0.0.1:9', SVC_API_TOKEN_ID: 'id', SVC_API_TOKEN_SECRET: 'secret' };

/**
 * A writer on a thread of its own (the fault blocked this one in open(): no timer of the test could
 * run): after `ms`, once a reader has the FIFO open, it writes `text` (nothing: it only frees a reader
 * stuck in open()) and closes; it never blocks, and gives up after 5 s. Without it a regression would
 * hang the test file instead of failing its tests.
 */
function writeLater(path: string, ms: number, text = ''): Worker {
  return new Worker(`
    const { workerData: { path, ms, text } } = require('node:worker_threads');
    const { closeSync, constants, openSync, writeSync } = require('node:fs');
    const sleep = (n) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, n);
    sleep(ms);
    for (let i = 0; i < 100; i++, sleep(50)) {
      let fd;
      try { fd = openSync(path, constants.O_WRONLY | constants.O_NONBLOCK); } catch { continue; } // ENXIO: no reader yet
      try { if (text) writeSync(fd, text); } finally { closeSync(fd); }
      break;
    }
  `, { eval: true, workerData: { path, ms, text } });
}

const workers: Worker[] = [];
const writers: ChildProcess[] = [];
afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.terminate()));
  for (const w of writers.splice(0)) w.kill('SIGKILL');
});

const CASES = [
  ['--input', (fifo: string) => ['issues', 'search', '--input', fifo, '--dry-run', '-o', 'json']],
  ['--reason-from', (fifo: string) => ['issues', 'mark-false-positive', 'iss_1', '--reason-from', fifo, '--dry-run', '-o', 'json']],
  ['-F key=@FILE', (fifo: string) => ['issues', 'search', '-F', `searchQuery=@${fifo}`, '--dry-run', '-o', 'json']],
  ['svc api --input', (fifo: string) => ['api', 'issues/search', '--input', fifo, '--dry-run', '-o', 'json']],
] as const;

describe.skipIf(!hasMkfifo)('a FIFO with no writer given as a request body or value (skipped without mkfifo)', () => {
  const cases = CASES.flatMap(([flag, argv]) => [{ flag, argv, signal: 'SIGINT', code: 130 }, { flag, argv, signal: 'SIGTERM', code: 143 }] as const);
  it.each(cases)('$flag: $signal ends the wait, exit $code', async ({ argv, signal, code }) => {
    const fifo = join(tempDir('body-fifo'), 'in');
    execFileSync('mkfifo', [fifo]);
    workers.push(writeLater(fifo, 2000));
    const host = testHost({ env: ENV });
    const running = runCli([...argv(fifo)], { host });
    await new Promise((r) => setTimeout(r, 300));
    host.abort(signal);
    const r = await running;
    expect(r.code, r.stderr).toBe(code);
    expect(r.stderr).toContain(`interrupted by ${signal}`);
    expect(r.stdout).toBe('');
  });

  it('a writer that comes later: what it writes is the body', async () => {
    const fifo = join(tempDir('body-fifo'), 'in');
    execFileSync('mkfifo', [fifo]);
    const running = runCli(['issues', 'search', '--input', fifo, '-F', `severities.min=2`, '--dry-run', '-o', 'json'], { env: ENV });
    workers.push(writeLater(fifo, 200, '{"searchQuery": "sql"}\n'));
    const r = await running;
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).body).toMatchObject({ searchQuery: 'sql', severities: { min: 2 } });
  });

  it('--reason-from a FIFO: the line end its writer added is dropped', async () => {
    const fifo = join(tempDir('body-fifo'), 'why');
    execFileSync('mkfifo', [fifo]);
    const running = runCli(['issues', 'mark-false-positive', 'iss_1', '--reason-from', fifo, '--org', 'org_1', '--dry-run', '-o', 'json'], { env: ENV });
    workers.push(writeLater(fifo, 200, 'validated upstream\n'));
    const r = await running;
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).body.falsePositiveReason).toBe('validated upstream');
  });

  it('a writer that never stops (cat /dev/zero): exit 2 at the limit, the FIFO closed (the writer ends)', async () => {
    const fifo = join(tempDir('body-fifo'), 'in');
    execFileSync('mkfifo', [fifo]);
    const writer = spawn('sh', ['-c', 'cat /dev/zero > "$0"', fifo], { stdio: 'ignore' });
    writers.push(writer);
    const ended = new Promise((r) => writer.once('exit', r));
    const r = await runCli(['issues', 'search', '--input', fifo, '--dry-run'], { env: ENV });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`--input from '${fifo}' is above svc's limit of 16.0 MiB on a request body`);
    // Its reader gone, cat ends (SIGPIPE): svc read no further.
    await ended;
  });
});
