import { describe, expect, it } from 'vitest';
import { parseGateOptions, type GateCommandOptions } from '../../../../src/commands/gate/options.js';
import { resolveThresholds } from '../../../../src/gate/policy.js';
import { scopeSpecs } from '../../../../src/commands/gate/scope-flags.js';
import { aligned, annotationLines, scopeText } from '../../../../src/commands/gate/summary.js';
import { UsageError } from '../../../../src/core/errors.js';
import { evaluateGate } from '../../../../src/gate/tally.js';

/** The thresholds of the options commander would have read: parsed once, then merged (no policy here). */
function gateOptions(raw: GateCommandOptions) {
  return resolveThresholds(parseGateOptions(raw, { specs: [], attribute: new Map() }));
}

describe('gate flags', () => {
  it('takes the issue search flags that scope the gate from its row', () => {
    expect(scopeSpecs().map((s) => s.flag)).toEqual([
      'organization-id', 'repository-ids', 'scan-id', 'project-id', 'code-scan-types',
      'vulnerability-classes', 'languages', 'rule-id', 'search-query',
    ]);
  });

  it('parses thresholds and cut-offs', () => {
    expect(gateOptions({ failOn: 'HIGH' })).toEqual({ failOn: 'high' });
    expect(gateOptions({ maxCritical: '0', maxTotal: '12' })).toEqual({ max: { critical: 0, total: 12 } });
    expect(gateOptions({ failOn: 'low', levels: 'critical=95,high=75' }).cutoffs).toEqual({ critical: 95, high: 75, medium: 40, low: 10 });
  });

  it('refuses a gate without a threshold, and bad values, as usage errors (exit 2)', () => {
    const cases: Array<[GateCommandOptions, RegExp]> = [
      [{}, /no threshold given/],
      [{ levels: 'high=80' }, /no threshold given/],
      [{ failOn: 'severe' }, /unknown level "severe"/],
      [{ maxHigh: '-1' }, /--max-high expects a whole number/],
      [{ maxHigh: '1.5' }, /--max-high expects a whole number/],
      [{ maxLow: 'many' }, /--max-low expects a whole number/],
      [{ failOn: 'high', levels: 'high=95' }, /--levels: cut-offs must descend/],
    ];
    for (const [opts, message] of cases) {
      let err: unknown;
      try { gateOptions(opts); } catch (e) { err = e; }
      expect(err, JSON.stringify(opts)).toBeInstanceOf(UsageError);
      expect((err as UsageError).exitCode).toBe(2);
      expect((err as Error).message).toMatch(message);
    }
  });
});

describe('gate output helpers', () => {
  it("caps annotations at the runner's limits (10 errors, 10 warnings per step), the most severe, with a notice of the rest", async () => {
    // 60 breaking (scores 90-100 and a few without a place), 20 medium warnings, 15 low notices.
    const issues = [
      ...Array.from({ length: 60 }, (_, i) => ({ id: `e${i}`, score: 90 + (i % 11), affectedFile: 'a.ts', startLine: i + 1 })),
      ...Array.from({ length: 20 }, (_, i) => ({ id: `w${i}`, score: 40 + i, affectedFile: 'b.ts', startLine: i + 1 })),
      ...Array.from({ length: 15 }, (_, i) => ({ id: `n${i}`, score: 10 + i, affectedFile: 'c.ts', startLine: i + 1 })),
    ];
    const lines = annotationLines(evaluateGate(issues, { failOn: 'critical' }), 'the step summary, --sarif r.sarif').text.trimEnd().split('\n');
    const errors = lines.filter((l) => l.startsWith('::error '));
    const warnings = lines.filter((l) => l.startsWith('::warning '));
    const notices = lines.filter((l) => l.startsWith('::notice '));
    expect(errors).toHaveLength(10);
    expect(warnings).toHaveLength(10);
    expect(notices).toHaveLength(10);
    // The most severe: every shown error has the top score 100 or 99; warnings the top medium/high scores.
    expect(errors.every((l) => /score (100|99)\b/.test(l) || /score 100/.test(l))).toBe(true);
    expect(warnings.every((l) => /file=b\.ts/.test(l) && Number(/score (\d+)/.exec(l)![1]) >= 50)).toBe(true);
    expect(lines.at(-1)).toBe('::notice title=svc gate::66 more issue annotations not shown (the runner shows at most 10 errors and 10 warnings per step, 50 per job; the most severe are shown); the full list: the step summary, --sarif r.sarif');
  });

  it('prints few annotations as they are', async () => {
    const { text } = annotationLines(evaluateGate([{ id: 'x', score: 91, affectedFile: 'b.ts', startLine: 3 }], { failOn: 'high' }));
    expect(text).toMatch(/^::error file=b\.ts,line=3,title=\[critical\] Issue x::/);
    expect(text.trimEnd().split('\n')).toHaveLength(1);
  });

  it('aligns columns, numbers to the right', () => {
    expect(aligned([['level', 'open', 'x'], ['critical', '7', 'y'], ['low', '123', 'z']], new Set([1]))).toEqual([
      '  level     open  x',
      '  critical     7  y',
      '  low        123  z',
    ]);
  });

  it('describes the scope', () => {
    expect(scopeText({ organizationId: 'o1', repositoryIds: ['r1', 'r2'], types: ['open'] })).toBe('open issues, organization o1, repositories r1,r2');
  });
});
