import { fingerprintOf } from '../../../src/gate/fingerprint.js';
import { describe, expect, it } from 'vitest';
import { createTally, evaluateGate, type IssueInput } from '../../../src/gate/tally.js';
import { slimIssue, slimmer } from '../../../src/commands/gate/count.js';
import { type Thresholds } from '../../../src/gate/policy.js';

/** Deterministic pseudo-random issues over every level, some not open, some without a score. */
function sample(n: number): IssueInput[] {
  let seed = 7;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  return Array.from({ length: n }, (_, i) => {
    const issue: IssueInput = { id: `i${i}`, generatedTitle: `t${i}`, sastCodeSegment: 'x'.repeat(50) };
    if (rnd() > 0.05) issue.score = Math.floor(rnd() * 101);
    if (rnd() < 0.1) issue.status = 'patched';
    return issue;
  });
}

const CASES: Thresholds[] = [
  { failOn: 'high' },
  { failOn: 'info' },
  { max: { critical: 0, medium: 3 } },
  { max: { total: 10 } },
  { failOn: 'critical', max: { low: 1000 } },
  { max: { info: 0 }, cutoffs: { critical: 95, high: 80, medium: 50, low: 20 } },
];

describe('createTally', () => {
  it.each(CASES)('keeping only issues that may break decides exactly like evaluateGate (%o)', (options) => {
    const issues = sample(500);
    const full = evaluateGate(issues, options);
    const tally = createTally({ ...options, keep: 'breaking' });
    for (const issue of issues) tally.add(issue);
    const lean = tally.result();
    expect(tally.seen).toBe(500);
    expect(lean.passed).toBe(full.passed);
    expect(lean.counts).toEqual(full.counts);
    expect(lean.violations).toEqual(full.violations);
    expect(lean.ignored).toBe(full.ignored);
    expect(lean.breaking.map((i) => i.id)).toEqual(full.breaking.map((i) => i.id));
    expect(lean.issues.length).toBeLessThanOrEqual(full.issues.length);
  });

  it('with keep breaking and --fail-on critical, lower levels are counted but not kept', () => {
    const tally = createTally({ failOn: 'critical', keep: 'breaking' });
    for (const issue of [{ id: 'a', score: 95 }, { id: 'b', score: 50 }, { id: 'c', score: 5 }]) tally.add(issue);
    const r = tally.result();
    expect(r.counts).toEqual({ critical: 1, high: 0, medium: 1, low: 0, info: 1, total: 3 });
    expect(r.issues.map((i) => i.id)).toEqual(['a']);
  });

  it('slims kept issues: heavy fields dropped, the rest kept, the id a string, the fingerprint added (once)', () => {
    const tally = createTally({ failOn: 'info', slim: slimIssue });
    const input = { id: 12 as unknown as string, score: 99, sastCodeSegment: 'code', patch: { gitDiff: 'd' }, affectedFile: 'a.ts', businessLogicScenario: 's' };
    tally.add(input);
    tally.add({ id: '13', score: 98, affectedFile: 'b.ts', fingerprint: 'svcfp1:given' });
    const [kept, other] = tally.result().issues;
    expect(kept).toEqual({ id: '12', score: 99, affectedFile: 'a.ts', fingerprint: fingerprintOf(input), level: 'critical', breaking: true });
    expect(other.fingerprint).toBe('svcfp1:given');
  });

  it('slims in place (the gate owns each parsed issue): the same JSON as a copy without the heavy fields, no second copy', () => {
    const text = '{"id":7,"score":91,"sastCodeSegment":"code","affectedFile":"a.ts","patch":{"gitDiff":"d"},"generatedTitle":"t"}';
    const input = JSON.parse(text) as IssueInput;
    const tally = createTally({ failOn: 'high', keep: 'breaking', slim: slimIssue });
    tally.add(input);
    const [kept] = tally.result().issues;
    expect(kept).toBe(input);
    expect(JSON.stringify(kept)).toBe(JSON.stringify({ id: '7', score: 91, affectedFile: 'a.ts', generatedTitle: 't', fingerprint: fingerprintOf(JSON.parse(text)), level: 'critical', breaking: true }));
  });

  it('an issue whose id is not its first field is copied with the id first, as before', () => {
    const input = { score: 91, id: 'x', sastCodeSegment: 'code' } as IssueInput;
    const out = slimIssue(input);
    expect(out).not.toBe(input);
    expect(Object.keys(out)).toEqual(['id', 'score', 'fingerprint']);
    expect(input.sastCodeSegment).toBe('code');
  });

  it('without fingerprints (a gate that writes only the table summary) no issue gets one; one the service gave stays', () => {
    const slim = slimmer(false);
    expect(slim({ id: 'a', score: 90, affectedFile: 'a.ts' }).fingerprint).toBeUndefined();
    expect(slim({ id: 'b', fingerprint: 'svcfp1:given' }).fingerprint).toBe('svcfp1:given');
  });
});
