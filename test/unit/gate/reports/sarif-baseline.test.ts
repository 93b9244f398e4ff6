/**
 * SARIF with a baseline and a policy: baselineState on every result, the unchanged issues listed,
 * suppressed issues with the policy's reason; valid for the schema and (where it runs) the multitool.
 */
import { describe, expect, it } from 'vitest';
import { evaluateGate, type GateIssue } from '../../../../src/gate/verdict.js';
import { toSarif } from '../../../../src/gate/reports/sarif.js';
import { fingerprintOf } from '../../../../src/gate/fingerprint.js';
import { ALL, lowOne, noFile, sqlInjection } from '../../../fixtures/reports/issues.js';
import { multitoolFindings, multitoolUnavailable } from '../../../helpers/sarif-multitool.js';
import { schemaErrors } from './sarif-schema.js';

const unavailable = multitoolUnavailable();
const OPTIONS = { toolName: 'svc', toolVersion: '0.1.0' };

function log() {
  const result = evaluateGate([{ ...sqlInjection, fingerprint: fingerprintOf(sqlInjection) }], { failOn: 'high' });
  const unchanged: GateIssue[] = [{ ...noFile, level: 'high', breaking: false }];
  const suppressed = [{ ...lowOne, level: 'low' as const, breaking: false, suppression: { reason: 'accepted risk, see SEC-42', expires: '2027-03-01', source: '.svc-policy.yml:6' } }];
  return toSarif(result, { ...OPTIONS, baseline: true, unchanged, suppressed });
}

describe('SARIF with a baseline and a policy', () => {
  it('marks new and unchanged results, lists suppressed ones with the reason, carries the fingerprint', () => {
    const sarif = log();
    const results = sarif.runs[0].results;
    expect(results.map((r) => [r.properties.issueId, r.baselineState, r.suppressions?.[0].justification])).toEqual([
      ['iss-sql', 'new', undefined],
      ['iss-nofile', 'unchanged', undefined],
      ['iss-low', undefined, 'accepted risk, see SEC-42'],
    ]);
    expect(results[0].partialFingerprints['svcFingerprint/v1']).toBe(fingerprintOf(sqlInjection));
    expect(schemaErrors(sarif)).toEqual([]);
    // Without a baseline no result claims a baselineState.
    expect(toSarif(evaluateGate(ALL, { failOn: 'high' }), OPTIONS).runs[0].results.every((r) => r.baselineState === undefined)).toBe(true);
  });

  it.skipIf(!!unavailable)('passes the multitool (Gh;Sarif) with 0 errors and 0 warnings', () => {
    expect(multitoolFindings({ baseline: log() }).baseline).toEqual([]);
  });
});
