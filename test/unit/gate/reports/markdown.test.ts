import { describe, expect, it } from 'vitest';
import { evaluateGate, type IssueInput } from '../../../../src/gate/tally.js';
import { MAX_ROWS, mdCell, toMarkdown } from '../../../../src/gate/reports/markdown.js';
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
    expect(lines).toContain('| critical | 95 | SQL injection in user lookup | src/db/users.ts:42 |');
    expect(lines).toContain('| critical | ? | Unscored finding | - |');
    expect(lines).toContain('| high | 75 | Hard-coded secret somewhere | - |');
  });

  it('escapes pipes, newlines and markup in cells so each row keeps 4 cells', () => {
    const md = toMarkdown(evaluateGate([hostile], { failOn: 'info' }));
    const row = md.split('\n').find((l) => l.startsWith('| high | 88.5 |'));
    expect(row).toBeDefined();
    const parts = cells(row ?? '');
    expect(parts).toHaveLength(4);
    expect(parts[2]).toContain('\\<script\\>');
    expect(parts[2]).toContain('\\|');
    expect(parts[2]).toContain('\\[l\\]\\(http://x\\)');
    expect(parts[2]).not.toMatch(/[\r\n]/);
    expect(parts[3]).toBe('web/a b\\#c%d/x,y:z.ts:7');
  });

  it('lists at most 50 breaking issues then says how many more', () => {
    const many: IssueInput[] = Array.from({ length: 53 }, (_, i) => ({ id: `i${i}`, score: 95, generatedTitle: `t${i}` }));
    const md = toMarkdown(evaluateGate(many, { failOn: 'critical' }));
    const rows = md.split('\n').filter((l) => /^\| critical \| 95 \| t\d+ \|/.test(l));
    expect(rows).toHaveLength(MAX_ROWS);
    expect(md).toContain('…and 3 more.');
    expect(md).toContain('#### Breaking issues (53)');
  });

  it('does not say "more" at exactly 50', () => {
    const fifty: IssueInput[] = Array.from({ length: 50 }, (_, i) => ({ id: `i${i}`, score: 95 }));
    expect(toMarkdown(evaluateGate(fifty, { failOn: 'critical' }))).not.toContain('more.');
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
