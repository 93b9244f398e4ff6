/** The shim's fast paths must say exactly what the full CLI says. */
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { BIN, cleanEnv, runProgram, runSvc } from '../helpers/run-svc.js';
import { tempDir } from '../helpers/temp.js';

describe('fast paths of bin/svc.js', () => {
  it('--version prints the package version', async () => {
    const pkg = JSON.parse(readFileSync(resolve(__dirname, '../../package.json'), 'utf8'));
    const r = await runSvc(['--version']);
    expect(r.stdout).toBe(`${pkg.version}\n`);
    expect((await runSvc(['-V'])).stdout).toBe(`${pkg.version}\n`);
  });

  it('top-level help from dist/help.txt equals the help the program renders', async () => {
    const fast = await runSvc(['--help']);
    const full = await runSvc(['--help'], { env: { SVC_NO_FAST_HELP: '1' } });
    expect(fast.code).toBe(0);
    expect(fast.stdout).toBe(full.stdout);
    expect(fast.stdout).toMatch(/^Usage: svc <command>/);
    for (const group of ['orgs', 'repos', 'installations', 'stats', 'issues', 'scans', 'auth', 'config', 'api']) {
      expect(fast.stdout).toMatch(new RegExp(`\\n  ${group}\\b`));
    }
  });

  describe('a stdout that cannot be written ends as the program\'s own does', () => {
    const fast = [['--version'], ['-V'], ['--help'], ['-h']];

    it.each(fast)('%s > /dev/full: one line on stderr, exit 9, no stack trace', async (arg) => {
      const fd = openSync('/dev/full', 'w');
      try {
        const child = spawn(process.execPath, [BIN, arg], { env: cleanEnv(), stdio: ['ignore', fd, 'pipe'] });
        let stderr = '';
        child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
        const code = await new Promise<number | null>((done) => child.on('close', (c) => done(c)));
        expect(stderr).toMatch(/^svc: error: cannot write the output to stdout: no space left on the device \(ENOSPC\)[^\n]*\n$/);
        expect(code).toBe(9);
      } finally {
        closeSync(fd);
      }
    });

    it.each(fast)('%s to a pipe whose reader has gone (EPIPE): exit 0, nothing on stderr', async (arg) => {
      // A FIFO whose only reader is closed before svc starts: its first write is EPIPE, every time
      // (`svc --help | (exec 0<&-; true)` is a race the reader usually loses).
      const dir = tempDir('svc-fast-epipe-');
      const r = await runProgram('bash', ['-c', `mkfifo "$D/f"; exec 3<>"$D/f" 4>"$D/f" 3<&-; "$NODE" "$BIN" ${arg} >&4`], {
        env: cleanEnv({ D: dir, NODE: process.execPath, BIN }),
      });
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
    });
  });
});
