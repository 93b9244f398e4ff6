/** `svc gate --json-report FILE`: the `-o json` verdict in a file beside the summary; "no verdict" when it cannot decide. */
import { existsSync, linkSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { useSandbox } from '../../../helpers/sandbox.js';
import { runCli } from '../../../helpers/host.js';
import { tempDir } from '../../../helpers/temp.js';

const sb = useSandbox();
let dir: string;
beforeAll(() => { dir = tempDir('svc-json-report-'); });

describe('--json-report', () => {
  it('writes what -o json prints, while stdout keeps the human summary', async () => {
    const file = join(dir, 'verdict.json');
    const withReport = await runCli(['gate', '--fail-on', 'high', '--json-report', file], { env: sb.env });
    expect(withReport.code).toBe(1);
    expect(withReport.stdout).toMatch(/^svc gate: FAILED/);
    expect(withReport.stderr).toContain(`wrote the JSON verdict ${file}`);
    const asJson = await runCli(['gate', '--fail-on', 'high', '-o', 'json'], { env: sb.env });
    const report = JSON.parse(readFileSync(file, 'utf8'));
    expect(report).toEqual(JSON.parse(asJson.stdout));
    expect(report).toMatchObject({ passed: false, decided: true });
    expect(report.breaking.length).toBeGreaterThan(0);
  });

  it('says "no verdict" when the gate cannot decide (a refused token: exit 3), and no SARIF is written', async () => {
    const file = join(dir, 'undecided.json');
    const sarif = join(dir, 'undecided.sarif');
    const r = await runCli(['gate', '--fail-on', 'high', '--json-report', file, '--sarif', sarif], { env: { ...sb.env, SVC_API_TOKEN_SECRET: 'wrong' } });
    expect(r.code).toBe(3);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ passed: false, decided: false, exitCode: 3, error: expect.stringContaining('401') });
    expect(existsSync(sarif)).toBe(false);
  });

  it('is checked before anything is sent: a missing directory or the same file as another report is exit 2', async () => {
    const missing = await runCli(['gate', '--fail-on', 'high', '--json-report', join(dir, 'nope', 'v.json')], { env: sb.env });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('cannot write the --json-report report');
    const same = await runCli(['gate', '--fail-on', 'high', '--json-report', join(dir, 'x'), '--junit', join(dir, 'x')], { env: sb.env });
    expect(same.code).toBe(2);
    expect(same.stderr).toContain('--junit and --json-report name the same file');
  });

  it('two reports that are one file by a symbolic or a hard link: exit 2 before anything is written (the JUnit replaced the SARIF)', async () => {
    const sub = tempDir('svc-json-report-links-');
    const sarif = join(sub, 's.sarif');
    writeFileSync(sarif, 'an earlier SARIF\n');
    symlinkSync('s.sarif', join(sub, 'by-symlink.xml'));
    linkSync(sarif, join(sub, 'by-hardlink.xml'));
    for (const other of ['by-symlink.xml', 'by-hardlink.xml']) {
      const r = await runCli(['gate', '--fail-on', 'high', '--sarif', sarif, '--junit', join(sub, other)], { env: sb.env });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(`are the same file (a link to it): one report would replace the other`);
      expect(readFileSync(sarif, 'utf8')).toBe('an earlier SARIF\n');
    }
    // A device (here by its name and by a link to it) is written in place, one report after the other: not "the same file".
    symlinkSync('/dev/null', join(sub, 'null-link'));
    const devices = await runCli(['gate', '--fail-on', 'high', '--sarif', '/dev/null', '--junit', join(sub, 'null-link')], { env: sb.env });
    expect(devices.stderr).not.toContain('are the same file');
    expect(devices.code).toBe(1);
  });
});
