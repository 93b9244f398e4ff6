import { describe, expect, it } from 'vitest';
import { evaluateGate, type IssueInput } from '../../../../src/gate/tally.js';
import { MAX_ROWS, STEP_SUMMARY_BYTES, mdCell, toMarkdown } from '../../../../src/gate/reports/markdown.js';
import { ALL, hostile } from '../../../fixtures/reports/issues.js';

/** Splits a table row on unescaped pipes. */
function cells(row: string): string[] {
  return row
    .slice(1, -1)
    .split(/(?<!\\)\|/)
    .map((c) => c.trim());
}

describe('toMarkdown', () => {
  it('says passed and lists counts with thresholds', () => {
    const md = toMarkdown(evaluateGate(ALL, { max: { critical: 5, total: 10 } }));
    expect(md.split('\n')[0]).toBe('### ✅ svc gate passed');
    const lines = md.split('\n');
    expect(lines).toContain('| critical | 2 | max 5 | ✅ |');
    expect(lines).toContain('| high | 2 | - | ✅ |');
    expect(lines).toContain('| **total** | 6 | max 10 | ✅ |');
    expect(md).toContain('Score cut-offs: critical ≥ 90, high ≥ 70, medium ≥ 40, low ≥ 10.');
    expect(md).not.toContain('Breaking issues');
  });

  it('says failed, lists violations, marks failing rows and the breaking issues', () => {
    const md = toMarkdown(evaluateGate(ALL, { failOn: 'high', max: { medium: 0 } }));
    const lines = md.split('\n');
    expect(lines[0]).toBe('### ❌ svc gate failed');
    expect(lines).toContain('- 4 issues at high or above (fail-on high)');
    expect(lines).toContain('- 1 medium issue > max 0');
    expect(lines).toContain('| critical | 2 | fail-on | ❌ |');
    expect(lines).toContain('| medium | 1 | max 0 | ❌ |');
    expect(lines).toContain('| low | 1 | - | ✅ |');
    expect(md).toContain('#### Breaking issues (5)');
    // The issue's id in a column of its own: what the policy's ignore list and `svc issues get` take.
    expect(lines).toContain('| Level | Score | Issue | Title | Location |');
    expect(lines).toContain('| critical | 95 | iss-sql | SQL injection in user lookup | src/db/users.ts:42 |');
    expect(lines).toContain('| critical | ? | iss-noscore | Unscored finding | - |');
    expect(lines).toContain('| high | 75 | iss-nofile | Hard-coded secret somewhere | - |');
  });

  it('escapes pipes, newlines and markup in cells (the id too) so each row keeps 5 cells', () => {
    const md = toMarkdown(evaluateGate([hostile], { failOn: 'info' }));
    const row = md.split('\n').find((l) => l.startsWith('| high | 88.5 |'));
    expect(row).toBeDefined();
    const parts = cells(row ?? '');
    expect(parts).toHaveLength(5);
    expect(parts[2]).toBe('iss-\\<\\&"\\>');
    expect(parts[3]).toContain('\\<script\\>');
    expect(parts[3]).toContain('\\|');
    expect(parts[3]).toContain('\\[l\\]\\(http://x\\)');
    expect(parts[3]).not.toMatch(/[\r\n]/);
    expect(parts[4]).toBe('web/a b\\#c%d/x,y:z.ts:7');
  });

  it('lists at most 50 breaking issues then says how many more', () => {
    const many: IssueInput[] = Array.from({ length: 53 }, (_, i) => ({ id: `i${i}`, score: 95, generatedTitle: `t${i}` }));
    const md = toMarkdown(evaluateGate(many, { failOn: 'critical' }));
    const rows = md.split('\n').filter((l) => /^\| critical \| 95 \| i\d+ \| t\d+ \|/.test(l));
    expect(rows).toHaveLength(MAX_ROWS);
    expect(md).toContain('…and 3 more.');
    expect(md).toContain('#### Breaking issues (53)');
  });

  it('does not say "more" at exactly 50', () => {
    const fifty: IssueInput[] = Array.from({ length: 50 }, (_, i) => ({ id: `i${i}`, score: 95 }));
    expect(toMarkdown(evaluateGate(fifty, { failOn: 'critical' }))).not.toContain('more.');
  });
});

describe('toMarkdown for the step summary (capped)', () => {
  const cap = { bytes: STEP_SUMMARY_BYTES, fullAt: '--json-report out/gate.json' };
  const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

  it('keeps the verdict and counts whole and cuts notes and titles to fit, saying how many were left out and where', () => {
    // Titles and files of 20,000 escaped or 3-byte characters, notes of 5,000: whole, the summary passes 1 MiB many times.
    const huge = '<€'.repeat(10_000);
    const many: IssueInput[] = Array.from({ length: 60 }, (_, i) => ({ id: `i${i}`, score: 95, generatedTitle: `t${i} ${huge}`, affectedFile: huge }));
    const notes = Array.from({ length: 400 }, (_, i) => `note ${i} ${'é'.repeat(5_000)}`);
    const result = evaluateGate(many, { failOn: 'critical' });
    const whole = toMarkdown(result, notes);
    expect(bytes(whole)).toBeGreaterThan(1024 * 1024);

    const md = toMarkdown(result, notes, { cap });
    expect(bytes(md)).toBeLessThanOrEqual(STEP_SUMMARY_BYTES);
    // Everything before the notes is as in the whole summary.
    const head = whole.slice(0, whole.indexOf('\n\nnote 0'));
    expect(md.startsWith(head)).toBe(true);
    expect(md.includes('\n| critical | 60 | fail-on | ❌ |\n')).toBe(true);
    expect(md.includes('\n#### Breaking issues (60)\n')).toBe(true);
    const shownNotes = md.split('\n').filter((l) => l.startsWith('note ')).length;
    expect(shownNotes).toBeGreaterThan(0);
    // (Checked as booleans: a failing toContain on this text prints megabytes.)
    expect(md.includes(`\n…and ${400 - shownNotes} more notes left out (the step summary is kept small); all of them: --json-report out/gate.json.\n`)).toBe(true);
    const rows = md.split('\n').filter((l) => /^\| critical \| 95 \| i\d+ \|/.test(l));
    expect(rows.length).toBeGreaterThan(0);
    expect(rows[0].length).toBeLessThan(3_000);
    expect(md.includes(`\n…and ${60 - rows.length} more; every one: --json-report out/gate.json.\n`)).toBe(true);
    expect(md.endsWith('\n')).toBe(true);
  });

  it('is the plain summary when it fits', () => {
    const result = evaluateGate(ALL, { failOn: 'high' });
    expect(toMarkdown(result, ['a note'], { cap })).toBe(toMarkdown(result, ['a note']));
  });
});

describe('mdCell', () => {
  it('escapes pipes and turns line breaks into <br>', () => {
    expect(mdCell('a|b\r\nc\nd\re')).toBe('a\\|b<br>c<br>d<br>e');
  });

  it('escapes markdown and html punctuation', () => {
    expect(mdCell('<b>*x*_y_`z`[a](b)&amp;')).toBe('\\<b\\>\\*x\\*\\_y\\_\\`z\\`\\[a\\]\\(b\\)\\&amp;');
  });
});
