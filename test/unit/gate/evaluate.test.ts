import { describe, expect, it } from 'vitest';
import { evaluateGate, type IssueInput } from '../../../src/gate/tally.js';
import { parseLevels } from '../../../src/gate/policy.js';

const issue = (id: string, score: number | undefined, status?: string): IssueInput => {
  const out: IssueInput = { id, generatedTitle: `title ${id}` };
  if (score !== undefined) out.score = score;
  if (status !== undefined) out.status = status;
  return out;
};

// 1 critical, 2 high, 1 medium, 1 low, 1 info
const sample: IssueInput[] = [
  issue('c1', 95),
  issue('h1', 75),
  issue('h2', 89.99),
  issue('m1', 40),
  issue('l1', 10),
  issue('i1', 9.99),
];

const ids = (list: { id: string }[]): string[] => list.map((i) => i.id);

describe('evaluateGate counts', () => {
  it('counts open issues per level and in total', () => {
    const r = evaluateGate(sample);
    expect(r.counts).toEqual({ critical: 1, high: 2, medium: 1, low: 1, info: 1, total: 6 });
    expect(r.passed).toBe(true);
    expect(r.breaking).toEqual([]);
    expect(r.violations).toEqual([]);
    expect(r.issues.map((i) => i.level)).toEqual(['critical', 'high', 'high', 'medium', 'low', 'info']);
    expect(r.issues.every((i) => i.breaking === false)).toBe(true);
  });

  it('counts every issue given, whatever its status (the listing asks for open ones; one of another status the service answered is counted, fail closed: commands/gate/count.ts names it)', () => {
    const r = evaluateGate(
      [
        issue('a', 99, 'patched'),
        issue('b', 99, 'falsePositive'),
        issue('c', 99, 'archived'),
        issue('d', 99, 'processing'),
        issue('e', 99, 'closed'),
        issue('f', 99, 'silenced'),
        issue('g', 99, 'notExploitable'),
        issue('h', 99, 'Open'),
        issue('i', 99),
      ],
      { failOn: 'critical' },
    );
    expect(r.counts.total).toBe(9);
    expect(r.ignored).toBe(0);
    expect(ids(r.issues)).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i']);
    expect(r.passed).toBe(false);
  });

  it('treats an issue without a score as critical (fail closed)', () => {
    const r = evaluateGate([issue('x', undefined)], { failOn: 'critical' });
    expect(r.issues[0].level).toBe('critical');
    expect(r.passed).toBe(false);
  });

  it('applies custom cut-offs', () => {
    const r = evaluateGate([issue('a', 85)], { failOn: 'critical', cutoffs: parseLevels('critical=80') });
    expect(r.issues[0].level).toBe('critical');
    expect(r.passed).toBe(false);
    expect(r.thresholds.cutoffs.critical).toBe(80);
  });

  it('does not mutate its input', () => {
    const input = [issue('a', 95)];
    evaluateGate(input, { failOn: 'high' });
    expect(input[0]).toEqual({ id: 'a', generatedTitle: 'title a', score: 95 });
  });
});

describe('failOn', () => {
  it('fails on issues at or above the level and marks only those breaking', () => {
    const r = evaluateGate(sample, { failOn: 'high' });
    expect(r.passed).toBe(false);
    expect(ids(r.breaking)).toEqual(['c1', 'h2', 'h1']); // most severe first
    expect(r.violations).toEqual(['3 issues at high or above (fail-on high)']);
    expect(r.issues.filter((i) => i.breaking).map((i) => i.id)).toEqual(['c1', 'h1', 'h2']);
    expect(r.thresholds.failOn).toBe('high');
  });

  it('passes when nothing reaches the level (89.99 is not critical)', () => {
    const r = evaluateGate([issue('h', 89.99)], { failOn: 'critical' });
    expect(r.passed).toBe(true);
  });

  it('fails at exactly the cut-off (90 is critical)', () => {
    const r = evaluateGate([issue('c', 90)], { failOn: 'critical' });
    expect(r.passed).toBe(false);
    expect(r.violations).toEqual(['1 issue at critical or above (fail-on critical)']);
  });

  it('failOn info breaks on every open issue', () => {
    const r = evaluateGate(sample, { failOn: 'info' });
    expect(r.breaking).toHaveLength(6);
    expect(r.violations[0]).toContain('any level');
  });
});

describe('max thresholds', () => {
  it('passes when a level is at its max', () => {
    const r = evaluateGate(sample, { max: { high: 2 } });
    expect(r.passed).toBe(true);
    expect(r.thresholds.max).toEqual({ high: 2 });
  });

  it('fails when a level exceeds its max and breaks on all issues of that level only', () => {
    const r = evaluateGate(sample, { max: { high: 1 } });
    expect(r.passed).toBe(false);
    expect(r.violations).toEqual(['2 high issues > max 1']);
    expect(ids(r.breaking).sort()).toEqual(['h1', 'h2']);
  });

  it('uses the singular for one issue', () => {
    const r = evaluateGate(sample, { max: { critical: 0 } });
    expect(r.violations).toEqual(['1 critical issue > max 0']);
    expect(ids(r.breaking)).toEqual(['c1']);
  });

  it.each(['medium', 'low', 'info'] as const)('max %s=0 fails on that level', (level) => {
    const r = evaluateGate(sample, { max: { [level]: 0 } });
    expect(r.passed).toBe(false);
    expect(r.breaking.map((i) => i.level)).toEqual([level]);
  });

  it('max total: passes at the limit, fails above it and breaks on all issues', () => {
    expect(evaluateGate(sample, { max: { total: 6 } }).passed).toBe(true);
    const r = evaluateGate(sample, { max: { total: 5 } });
    expect(r.passed).toBe(false);
    expect(r.violations).toEqual(['6 open issues > max 5']);
    expect(r.breaking).toHaveLength(6);
  });

  it('combines thresholds: every broken one is reported, breaking issues are not duplicated', () => {
    const r = evaluateGate(sample, { failOn: 'critical', max: { critical: 0, high: 1, medium: 5 } });
    expect(r.violations).toEqual([
      '1 issue at critical or above (fail-on critical)',
      '1 critical issue > max 0',
      '2 high issues > max 1',
    ]);
    expect(ids(r.breaking)).toEqual(['c1', 'h2', 'h1']);
  });
});
