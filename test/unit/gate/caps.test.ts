import { describe, expect, it } from 'vitest';
import { ANNOTATION_LIMITS, LOGISSUE_LIMITS, SARIF_LIMITS, bySeverity, capAnnotations, fewerResults, keepMostSevere, sarifOmittedReason } from '../../../src/gate/caps.js';
import { type Level } from '../../../src/operations/levels.js';

const item = (id: string, level: Level, score?: number) => ({ id, level, score });

describe('the platforms\' limits (gate/caps.ts)', () => {
  it('are host A\'s: 25,000 results and 10 MB gzip per SARIF upload; 10 errors, 10 warnings per step, 50 per job', () => {
    expect(SARIF_LIMITS).toEqual({ results: 25_000, gzipBytes: 10 * 1024 * 1024 });
    expect(ANNOTATION_LIMITS).toMatchObject({ error: 10, warning: 10, job: 50 });
    expect(sarifOmittedReason('results')).toBe("host A's code scanning takes at most 25,000 results per SARIF run");
    expect(sarifOmittedReason('gzipBytes')).toBe("host A's code scanning takes at most 10 MB of gzip-compressed SARIF per upload");
  });

  it('orders by level, then score (none last)', () => {
    const sorted = [item('a', 'low', 30), item('b', 'critical', 91), item('c', 'critical', 99), item('d', 'high'), item('e', 'high', 70)].sort(bySeverity);
    expect(sorted.map((i) => i.id)).toEqual(['c', 'b', 'e', 'd', 'a']);
  });

  it('keeps the most severe across groups, each in its own order, and counts the rest', () => {
    const groups = [[item('n1', 'low', 10), item('n2', 'critical', 95)], [item('u1', 'high', 80), item('u2', 'info', 1)], [item('s1', 'medium', 50)]];
    const { kept, omitted } = keepMostSevere(groups, 3);
    expect(kept.map((g) => g.map((i) => i.id))).toEqual([['n2'], ['u1'], ['s1']]);
    expect(omitted).toBe(2);
    expect(keepMostSevere(groups, 10).omitted).toBe(0);
  });

  it('tries fewer results in proportion when the compressed report is too large', () => {
    expect(fewerResults(25_000, 20 * 1024 * 1024, 10 * 1024 * 1024)).toBe(11_875);
    expect(fewerResults(10, 11, 10)).toBeLessThan(10);
  });

  it('caps annotations per kind, keeping a place for the notice of the rest', () => {
    const errors = Array.from({ length: 30 }, (_, i) => item(`e${i}`, i < 5 ? 'critical' : 'high', i));
    const { kept, omitted } = capAnnotations({ error: errors, warning: [item('w', 'medium', 50)], notice: [] });
    expect(kept.error).toHaveLength(10);
    expect(kept.error.slice(0, 5).every((i) => i.level === 'critical')).toBe(true);
    expect(kept.error.slice(5).map((i) => i.score)).toEqual([29, 28, 27, 26, 25]);
    expect(kept.warning).toHaveLength(1);
    expect(omitted).toBe(20);
    const notices = Array.from({ length: 10 }, (_, i) => item(`n${i}`, 'low', i));
    expect(capAnnotations({ error: [], warning: [], notice: notices }).omitted).toBe(0);
    const more = capAnnotations({ error: [], warning: [], notice: [...notices, item('n10', 'info')] });
    expect([more.kept.notice.length, more.omitted]).toEqual([9, 2]);
  });

  it('counts what earlier steps of the job and earlier runs of the step printed', () => {
    const many = (p: string, level: Level, n: number) => Array.from({ length: n }, (_, i) => item(`${p}${i}`, level, i));
    const groups = { error: many('e', 'critical', 20), warning: many('w', 'medium', 20), notice: many('n', 'low', 20) };
    // 45 used in the job: 5 places left, one for the note.
    const late = capAnnotations(groups, ANNOTATION_LIMITS, { job: 45, step: { error: 0, warning: 0, notice: 0 } });
    expect([late.kept.error.length, late.kept.warning.length, late.kept.notice.length, late.note]).toEqual([4, 0, 0, true]);
    expect(late.omitted).toBe(56);
    // The job is full: nothing is shown and there is no place for the note either.
    const full = capAnnotations(groups, ANNOTATION_LIMITS, { job: 50, step: { error: 0, warning: 0, notice: 0 } });
    expect([full.kept.error.length, full.note, full.omitted]).toEqual([0, false, 60]);
    // This step already showed 10 errors: warnings and notices still have their places.
    const step = capAnnotations(groups, ANNOTATION_LIMITS, { job: 10, step: { error: 10, warning: 0, notice: 0 } });
    expect([step.kept.error.length, step.kept.warning.length, step.kept.notice.length, step.note]).toEqual([0, 10, 9, true]);
  });

  it('with logging commands: 10 errors and 10 warnings a step, the note a warning, no notices', () => {
    const many = (p: string, level: Level, n: number) => Array.from({ length: n }, (_, i) => item(`${p}${i}`, level, i));
    const r = capAnnotations({ error: many('e', 'high', 12), warning: many('w', 'medium', 12), notice: many('n', 'low', 3) }, LOGISSUE_LIMITS);
    expect([r.kept.error.length, r.kept.warning.length, r.kept.notice.length, r.note, r.omitted]).toEqual([10, 9, 0, true, 8]);
    expect(capAnnotations({ error: many('e', 'high', 2), warning: [], notice: [] }, LOGISSUE_LIMITS).omitted).toBe(0);
  });
});
