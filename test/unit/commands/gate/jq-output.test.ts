/**
 * The gate's verdict printed through --jq when jq's engine stops (test/unit/output/jq-engine.test.ts):
 * the verdict stands. A failing gate still exits 1, the missing output said first; a passing one
 * exits 9, never 0 without its output.
 */
import { describe, expect, it } from 'vitest';
import { useSandbox } from '../../../helpers/sandbox.js';
import { runCli } from '../../../helpers/host.js';
import { EXIT } from '../../../../src/core/exit-codes.js';

const sb = useSandbox();
const STOPS = 'def f: 1 + f; f';

describe('svc gate -o json --jq, when jq stops', () => {
  it('a failing gate exits 1, saying the output is missing', async () => {
    const r = await runCli(['gate', '--fail-on', 'high', '--no-ci', '-o', 'json', '--jq', STOPS], { env: sb.env });
    expect(r.code, r.stderr).toBe(EXIT.GATE_FAILED);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`warning: --jq '${STOPS}': jq stopped without a result (it ran out of memory or stack on `);
    expect(r.stderr).toMatch(/so the output is missing/);
    expect(r.stderr).toMatch(/gate failed: /);
    expect(r.stderr).not.toMatch(/Aborted|at .*\.ts:\d+/);
  });

  it('a passing gate exits 9, not 0', async () => {
    const r = await runCli(['gate', '--max-total', '1000000', '--no-ci', '-o', 'json', '--jq', STOPS], { env: sb.env });
    expect(r.code, r.stderr).toBe(EXIT.OUTPUT);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/error: --jq .*jq stopped without a result/);
    expect(r.stderr.trim().split('\n').filter((l) => /error:/.test(l))).toHaveLength(1);
  });
});
