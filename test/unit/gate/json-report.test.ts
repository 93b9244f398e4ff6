/** `svc gate --json-report FILE`: the `-o json` verdict in a file beside the summary; "no verdict" when it cannot decide. */
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../../helpers/sandbox.js';
import { svcInProcess } from '../../helpers/gate-host.js';

let sb: TestSandbox;
let dir: string;
beforeAll(async () => {
  sb = await startTestSandbox();
  dir = mkdtempSync(join(tmpdir(), 'svc-json-report-'));
});
afterAll(async () => {
  await sb.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('--json-report', () => {
  it('writes what -o json prints, while stdout keeps the human summary', async () => {
    const file = join(dir, 'verdict.json');
    const withReport = await svcInProcess(['gate', '--fail-on', 'high', '--json-report', file], sb.env);
    expect(withReport.code).toBe(1);
    expect(withReport.stdout).toMatch(/^svc gate: FAILED/);
    expect(withReport.stderr).toContain(`wrote the JSON verdict ${file}`);
    const asJson = await svcInProcess(['gate', '--fail-on', 'high', '-o', 'json'], sb.env);
    const report = JSON.parse(readFileSync(file, 'utf8'));
    expect(report).toEqual(JSON.parse(asJson.stdout));
    expect(report).toMatchObject({ passed: false, decided: true });
    expect(report.breaking.length).toBeGreaterThan(0);
  });

  it('says "no verdict" when the gate cannot decide (a refused token: exit 3), and no SARIF is written', async () => {
    const file = join(dir, 'undecided.json');
    const sarif = join(dir, 'undecided.sarif');
    const r = await svcInProcess(['gate', '--fail-on', 'high', '--json-report', file, '--sarif', sarif], { ...sb.env, SVC_API_TOKEN_SECRET: 'wrong' });
    expect(r.code).toBe(3);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ passed: false, decided: false, exitCode: 3, error: expect.stringContaining('401') });
    expect(existsSync(sarif)).toBe(false);
  });

  it('is checked before anything is sent: a missing directory or the same file as another report is exit 2', async () => {
    const missing = await svcInProcess(['gate', '--fail-on', 'high', '--json-report', join(dir, 'nope', 'v.json')], sb.env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('cannot write the --json-report report');
    const same = await svcInProcess(['gate', '--fail-on', 'high', '--json-report', join(dir, 'x'), '--junit', join(dir, 'x')], sb.env);
    expect(same.code).toBe(2);
    expect(same.stderr).toContain('--junit and --json-report name the same file');
  });
});
