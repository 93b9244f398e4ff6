/**
 * SARIF with a baseline and a policy: baselineState on every result, the unchanged issues listed,
 * suppressed issues with the policy's reason; valid for the schema. The same log through the
 * multitool: test/unit/gate/reports/sarif-multitool.test.ts (one run of the tool for every log).
 */
import { describe, expect, it } from 'vitest';
import { evaluateGate } from '../../../../src/gate/tally.js';
import { toSarif } from '../../../../src/gate/reports/sarif.js';
import { fingerprintOf } from '../../../../src/gate/fingerprint.js';
import { ALL, sqlInjection } from '../../../fixtures/reports/issues.js';
import { SARIF_OPTIONS as OPTIONS, baselineSarif as log } from '../../../fixtures/reports/sarif-logs.js';
import { schemaErrors } from './sarif-schema.js';

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
});
