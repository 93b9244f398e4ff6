/**
 * The README's "Trying the job against the sandbox" recipe, line by line as written, with bash and
 * the built bin as `svc` (issue 10: `-o csv` ended lines with CRLF, so `REPO_ID=$(... | sed -n 2p)`
 * held `repo_…\r`, and the next commands sent it). Only the sandbox's start and address differ: it
 * runs in the test, on a free port.
 */
import { mkdirSync, readFileSync, symlinkSync, existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, cleanEnv, runProgram } from '../helpers/run-svc.js';
import { useSandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp.js';

const sb = useSandbox({ scanDurationMs: 300 });

/** The recipe's command lines (the sandbox's own start and export lines left out). */
function recipe(): string[] {
  const readme = readFileSync(resolve(__dirname, '../../README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('### Trying the job against the sandbox'));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
  const lines = block.split('\n').filter((l) => l.trim() !== '' && !/^svc sandbox\b|^export SVC_/.test(l));
  expect(lines.length).toBeGreaterThanOrEqual(3);
  return lines;
}

describe('the README recipe against the sandbox, as written', () => {
  it('REPO_ID from `-o csv | sed -n 2p` is a clean id; the scan starts and finishes (0); the gate fails on high issues (1)', async () => {
    const dir = tempDir('svc-readme-recipe-');
    mkdirSync(join(dir, 'bin'));
    symlinkSync(BIN, join(dir, 'bin', 'svc'));
    // Each command's exit code and the REPO_ID as bytes, after the line that sets it.
    const script = ['set -u', ...recipe().map((l) => `${l}\necho "exit=$? repo=$(printf %s "\${REPO_ID:-}" | od -An -c | tr -s ' ')" >&2`)].join('\n');
    const env = cleanEnv({ ...sb.env, PATH: [join(dir, 'bin'), dirname(process.execPath), process.env.PATH].join(':') });
    const r = await runProgram('bash', ['-c', script], { env, cwd: dir });
    const marks = r.stderr.split('\n').filter((l) => l.startsWith('exit='));
    expect(marks, r.stderr).toHaveLength(3);
    // The id holds no carriage return (od shows one as \r).
    expect(marks[0]).toMatch(/^exit=0 repo= r e p o _ [0-9a-f ]+$/);
    expect(marks[0]).not.toContain('\\r');
    expect(marks[1], r.stderr).toMatch(/^exit=0 /);
    expect(r.stdout).toMatch(/^scan_[0-9a-f]+\n/);
    expect(marks[2], r.stderr).toMatch(/^exit=1 /);
    expect(r.stdout).toContain('svc gate: FAILED');
    expect(existsSync(join(dir, 'out.sarif'))).toBe(true);
  });
});
