/**
 * SARIF reports through the SARIF multitool with the checks a code-scanning upload applies
 * (`validate --rule-kind "Gh;Sarif"`): 0 errors and 0 warnings, for hand-made hostile issues, an
 * empty report, the report `svc gate --sarif` writes against the sandbox, a run capped by size and
 * a log with a baseline and a policy; and a broken log's faults are found (the check can fail).
 * Every log goes through the tool in ONE run (each run costs about a second of CPU); each test
 * reads its log's findings. Skips, saying why, only where the multitool's binary cannot run here.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { evaluateGate } from '../../../../src/gate/tally.js';
import { toSarif } from '../../../../src/gate/reports/sarif.js';
import { ALL, noFile } from '../../../fixtures/reports/issues.js';
import { SARIF_OPTIONS as OPTIONS, baselineSarif, cappedSarif } from '../../../fixtures/reports/sarif-logs.js';
import { multitoolFindings, multitoolUnavailable, type MultitoolFinding } from '../../../helpers/sarif-multitool.js';
import { startTestSandbox } from '../../../helpers/sandbox.js';
import { runCli } from '../../../helpers/host.js';
import { tempDir } from '../../../helpers/temp.js';

const unavailable = multitoolUnavailable();
if (unavailable) console.warn(`SKIPPED: SARIF multitool checks: ${unavailable}`);

/** The gate's own SARIF file, written against the sandbox. */
async function gateSarif(): Promise<string> {
  const sb = await startTestSandbox();
  const dir = tempDir('svc-sarif-gate-');
  try {
    const file = join(dir, 'gate.sarif');
    const r = await runCli(['gate', '--fail-on', 'high', '--sarif', file], { env: sb.env });
    expect(r.code, r.stderr).toBe(1);
    return readFileSync(file, 'utf8');
  } finally {
    await sb.close();
  }
}

describe.skipIf(!!unavailable)('SARIF through the multitool (Gh;Sarif rules)', () => {
  let gate: string;
  let capped: { text: string; omitted: number };
  let found: Record<string, MultitoolFinding[]>;

  beforeAll(async () => {
    gate = await gateSarif();
    capped = await cappedSarif();
    // A control: what a code-scanning upload rejects is found (no fullDescription/help, no location).
    const broken = toSarif(evaluateGate([noFile], { failOn: 'high' }), OPTIONS) as unknown as {
      runs: Array<{ tool: { driver: { rules: Array<Record<string, unknown>> } }; results: Array<Record<string, unknown>> }>;
    };
    delete broken.runs[0].tool.driver.rules[0].fullDescription;
    delete broken.runs[0].tool.driver.rules[0].help;
    delete broken.runs[0].results[0].locations;
    found = multitoolFindings({
      fixtures: toSarif(evaluateGate(ALL, { failOn: 'high' }), OPTIONS),
      empty: toSarif(evaluateGate([]), OPTIONS),
      gate,
      capped: capped.text,
      baseline: baselineSarif(),
      broken,
    });
  }, 60_000);

  it('0 errors and 0 warnings: hostile hand-made issues, and an empty report', () => {
    expect(found.fixtures).toEqual([]);
    expect(found.empty).toEqual([]);
  });

  it("0 errors and 0 warnings: the gate's own report against the sandbox", () => {
    expect(JSON.parse(gate).runs[0].results.length).toBeGreaterThan(100);
    expect(found.gate).toEqual([]);
  });

  it('0 errors and 0 warnings: a run capped by size, its properties as they are', () => {
    expect(capped.omitted).toBeGreaterThan(0);
    expect(JSON.parse(capped.text).runs[0].properties.svc.omittedResults).toBe(capped.omitted);
    expect(found.capped).toEqual([]);
  });

  it('0 errors and 0 warnings: a baseline and a policy (baselineState, suppressions with their reason)', () => {
    expect(found.baseline).toEqual([]);
  });

  it('the check can fail: a rule without fullDescription and help, a result without a location, are found', () => {
    const ids = found.broken.map((f) => f.ruleId);
    expect(ids).toContain('GH2012'); // fullDescription / help
    expect(ids).toContain('GH1015'); // a result without a location
  });
});
