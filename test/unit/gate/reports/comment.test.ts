import { describe, expect, it } from 'vitest';
import { evaluateGate } from '../../../../src/gate/tally.js';
import { verdictComment } from '../../../../src/gate/reports/comment.js';
import { ALL } from '../../../fixtures/reports/issues.js';

describe('verdictComment (svc gate --comment)', () => {
  it('says a FAIL was proven on an incomplete listing, as the step summary and --markdown do', () => {
    const result = evaluateGate(ALL, { failOn: 'high' });
    const text = verdictComment({ result, incomplete: 'page 3: HTTP 503' }, { commit: 'abcdef1234567890' });
    expect(text).toContain('svc gate failed');
    expect(text).toContain('The listing was incomplete \\(page 3: HTTP 503\\): the FAIL stands on the issues read');
    expect(text).toContain('on abcdef123456');
  });

  it('adds no such note to a whole listing', () => {
    const text = verdictComment({ result: evaluateGate(ALL, { failOn: 'high' }) });
    expect(text).not.toContain('incomplete');
  });
});
