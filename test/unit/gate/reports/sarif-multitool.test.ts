/**
 * SARIF reports through the SARIF multitool with the checks a code-scanning upload applies
 * (`validate --rule-kind "Gh;Sarif"`): 0 errors and 0 warnings, for hand-made hostile issues and for
 * the report `svc gate --sarif` writes against the sandbox. Skips, saying why, only where the
 * multitool's binary cannot run on this machine.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { evaluateGate } from '../../../../src/gate/verdict.js';
import { toSarif } from '../../../../src/gate/reports/sarif.js';
import { ALL, noFile } from '../../../fixtures/reports/issues.js';
import { multitoolFindings, multitoolUnavailable } from '../../../helpers/sarif-multitool.js';
import { startTestSandbox } from '../../../helpers/sandbox.js';
import { runCli } from '../../../helpers/host.js';
import { tempDir } from '../../../helpers/temp.js';
import { capSarif } from '../../../../src/commands/gate/sarif-cap.js';
import { sarifChunks } from '../../../../src/commands/gate/reports.js';
import type { GateVerdict } from '../../../../src/commands/gate/decision.js';

const unavailable = multitoolUnavailable();
if (unavailable) console.warn(`SKIPPED: SARIF multitool checks: ${unavailable}`);

const OPTIONS = { toolName: 'svc', toolVersion: '0.1.0' };

/** A SARIF run capped by size (a small gzip limit, as sarif-cap.test.ts does), with its properties saying so. */
async function cappedSarif(): Promise<string> {
  const result = evaluateGate(Array.from({ length: 400 }, (_, i) => ({ id: `i${i}`, score: i % 100, affectedFile: `src/f${i}.ts`, startLine: i + 1, generatedDescription: `x${i} `.repeat(40) })), { failOn: 'critical' });
  const v: GateVerdict = { result, scope: {}, verified: { unverifiedFilters: [] }, fetched: 400, totalCount: 400 };
  const inputs = { version: '1.0.0', startedAt: 0, endedAt: 0 };
  const cap = await capSarif(v, (x, omitted) => sarifChunks(x, inputs, omitted), { results: 25_000, gzipBytes: 8_000 });
  expect(cap.omitted).toBeGreaterThan(0);
  return [...sarifChunks(cap.verdict, inputs, { results: cap.omitted, reason: cap.reason })].join('');
}

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
  it('0 errors and 0 warnings: hostile hand-made issues, an empty report, the gate\'s own report, a capped run; and the check can fail', async () => {
    const gate = await gateSarif();
    const capped = await cappedSarif();
    expect(JSON.parse(capped).runs[0].properties.svc.omittedResults).toBeGreaterThan(0);
    expect(JSON.parse(gate).runs[0].results.length).toBeGreaterThan(100);
    // A control: what a code-scanning upload rejects is found (no fullDescription/help, no location).
    const broken = toSarif(evaluateGate([noFile], { failOn: 'high' }), OPTIONS) as unknown as {
      runs: Array<{ tool: { driver: { rules: Array<Record<string, unknown>> } }; results: Array<Record<string, unknown>> }>;
    };
    delete broken.runs[0].tool.driver.rules[0].fullDescription;
    delete broken.runs[0].tool.driver.rules[0].help;
    delete broken.runs[0].results[0].locations;

    const found = multitoolFindings({
      fixtures: toSarif(evaluateGate(ALL, { failOn: 'high' }), OPTIONS),
      empty: toSarif(evaluateGate([]), OPTIONS),
      gate,
      capped,
      broken,
    });
    // The multitool's SARIF and code-scanning checks take the capped run and its properties as they are.
    expect(found.capped).toEqual([]);
    expect(found.fixtures).toEqual([]);
    expect(found.empty).toEqual([]);
    expect(found.gate).toEqual([]);
    const ids = found.broken.map((f) => f.ruleId);
    expect(ids).toContain('GH2012'); // fullDescription / help
    expect(ids).toContain('GH1015'); // a result without a location
  });
});
