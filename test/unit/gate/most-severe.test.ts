/**
 * The annotations hold only the most severe issues of each kind (caps.ts mostSevere), never the
 * whole list: the capped annotations are the same as from every issue, ties in the order given.
 */
import { describe, expect, it } from 'vitest';
import { ANNOTATION_LIMITS, bySeverity, capAnnotations, mostSevere } from '../../../src/gate/caps.js';
import { evaluateGate, type GateIssue } from '../../../src/gate/tally.js';
import { mostSevereAnnotationGroups } from '../../../src/gate/reports/annotations.js';
import { levelAtLeast } from '../../../src/operations/levels.js';

describe('mostSevere', () => {
  it('keeps the n most severe, most severe first, equals in the order added', () => {
    const items = Array.from({ length: 500 }, (_, i) => ({ i, level: (['critical', 'high', 'medium', 'low', 'info'] as const)[(i * 7) % 5], score: i % 4 === 0 ? undefined : (i * 13) % 5 }));
    for (const n of [0, 1, 10, 50, 499, 600]) {
      const top = mostSevere<(typeof items)[number]>(n);
      for (const item of items) top.add(item);
      expect(top.items.map((x) => x.i), `n=${n}`).toEqual([...items].sort(bySeverity).slice(0, n).map((x) => x.i));
    }
  });

  it('the capped annotations of the most severe of each kind are those of every issue', () => {
    const issues = Array.from({ length: 3000 }, (_, i) => ({ id: `i${i}`, score: i % 9 === 0 ? undefined : (i * 37) % 101, generatedTitle: `t${i}` }));
    for (const options of [{ failOn: 'critical' as const }, { failOn: 'high' as const }, {}, { max: { total: 5 } }]) {
      const result = evaluateGate(issues, options);
      const all: Record<'error' | 'warning' | 'notice', GateIssue[]> = {
        error: result.breaking,
        warning: result.issues.filter((x) => !x.breaking && levelAtLeast(x.level, 'medium')),
        notice: result.issues.filter((x) => !x.breaking && !levelAtLeast(x.level, 'medium')),
      };
      const { groups, totals } = mostSevereAnnotationGroups(result, ANNOTATION_LIMITS.job);
      expect(groups.warning.length).toBeLessThanOrEqual(ANNOTATION_LIMITS.job);
      expect(totals).toEqual({ error: all.error.length, warning: all.warning.length, notice: all.notice.length });
      expect(capAnnotations(groups, ANNOTATION_LIMITS, undefined, totals)).toEqual(capAnnotations(all));
    }
  });
});
