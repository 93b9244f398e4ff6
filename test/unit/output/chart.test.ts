/** The stats charts (src/output/chart.ts): every line fits the width; odd series still read. */
import { describe, expect, it } from 'vitest';
import { countBars, seriesChart } from '../../../src/output/chart.js';
import { painter } from '../../../src/output/cells.js';
import { displayWidth } from '../../../src/output/text-width.js';

const plain = { chalk: painter(false) };
// eslint-disable-next-line no-control-regex
const strip = (l: string) => l.replace(/\u001b\[[0-9;]*m/g, '');
const point = (date: string, critical: number, high: number, medium = 0, low = 0, info = 0) => ({ date, critical, high, medium, low, info, total: critical + high + medium + low + info });
const fits = (lines: string[], width: number) => expect(lines.map(strip).filter((l) => displayWidth(l) > width)).toEqual([]);

describe('seriesChart', () => {
  const series = [point('2026-11-01', 12, 30, 20, 5, 1), point('2026-11-08', 10, 28, 20, 5, 1), point('2026-11-15', 7, 25, 22, 4, 0)];

  it('one stacked bar a period, scaled to the largest, a legend, and the change of each level and the total', () => {
    const lines = seriesChart(series, { ...plain, width: 80 });
    fits(lines, 80);
    expect(lines[0]).toMatch(/^2026-11-01 {2}█+▓+▒+░+·? +68$/);
    expect(lines[2]).toMatch(/^2026-11-15 {2}█+▓+▒+░+ +58$/);
    // The largest period fills the line.
    expect(displayWidth(lines[0])).toBe(80);
    expect(lines).toContain('█ critical  ▓ high  ▒ medium  ░ low  · info');
    expect(lines).toContain('open critical 12 → 7, −42% since 2026-11-01');
    expect(lines).toContain('open medium 20 → 22, +10% since 2026-11-01');
    expect(lines).toContain('open info 1 → 0, −100% since 2026-11-01');
    expect(lines).toContain('open total 68 → 58, −15% since 2026-11-01');
  });

  it('colour only when asked: the same glyphs, painted', () => {
    const coloured = seriesChart(series, { chalk: painter(true), width: 80 });
    expect(coloured.join('\n')).toContain('\u001b[');
    expect(coloured.map(strip)).toEqual(seriesChart(series, { ...plain, width: 80 }));
    expect(seriesChart(series, { ...plain, width: 80 }).join('\n')).not.toContain('\u001b[');
  });

  it('40 columns: bars shrink, the legend wraps between items, the change lines name the date once', () => {
    const lines = seriesChart(series, { ...plain, width: 40 });
    fits(lines, 40);
    expect(lines).toContain('Since 2026-11-01:');
    expect(lines).toContain('open critical 12 → 7, −42%');
    expect(lines.some((l) => l.startsWith('· info'))).toBe(true);
  });

  it('an empty series, one point, zero values', () => {
    expect(seriesChart([], plain)).toEqual(['No periods in this range: nothing to chart.']);
    const one = seriesChart([point('2026-11-01', 3, 4)], { ...plain, width: 80 });
    expect(one.at(-1)).toBe('One period (2026-11-01): no change to show.');
    const zero = seriesChart([point('2026-11-01', 0, 0), point('2026-11-08', 0, 0)], { ...plain, width: 80 });
    fits(zero, 80);
    expect(zero[0]).toMatch(/^2026-11-01 +0$/);
    expect(zero).toContain('open total 0 → 0, no change since 2026-11-01');
    // A level that is zero all along says nothing; one that starts at zero is "up from none".
    expect(zero.some((l) => l.startsWith('open critical'))).toBe(false);
    const rise = seriesChart([point('2026-11-01', 0, 1), point('2026-11-08', 4, 1)], { ...plain, width: 80 });
    expect(rise).toContain('open critical 0 → 4, up from none since 2026-11-01');
  });

  it('a wide range: a small count still shows as one cell', () => {
    const lines = seriesChart([point('2026-01-01', 0, 100_000), point('2026-02-01', 0, 1)], { ...plain, width: 80 });
    fits(lines, 80);
    expect(lines[1]).toMatch(/^2026-02-01 {2}▓ +1$/);
    expect(lines).toContain('open high 100000 → 1, −100% since 2026-01-01');
  });

  it('a long series (day buckets over two years) says how to get fewer bars', () => {
    const days = Array.from({ length: 694 }, (_, i) => point(new Date(Date.UTC(2025, 0, 1 + i)).toISOString().slice(0, 10), 1, 2));
    const lines = seriesChart(days, { ...plain, width: 80 });
    fits(lines, 80);
    expect(lines).toContain('694 periods: a coarser --time-granularity (week or month) draws fewer bars.');
    expect(seriesChart(days.slice(0, 60), { ...plain, width: 80 }).join('\n')).not.toContain('--time-granularity');
  });

  it('a narrow terminal: every level with a count keeps at least one cell of its bar', () => {
    // The sandbox's posture at 40 columns: info's 4 of 192 rounded to no cell, so the bar hid a level.
    for (const width of [40, 30]) {
      const lines = seriesChart([point('2026-11-19', 21, 69, 74, 24, 4), point('2026-11-26', 21, 69, 74, 24, 4)], { ...plain, width });
      fits(lines, width);
      for (const glyph of ['█', '▓', '▒', '░', '·']) expect(lines[0], `${width}: ${glyph}`).toContain(glyph);
    }
    const bars = countBars([{ name: 'a', critical: 1, high: 500, medium: 0, low: 0, info: 1 }], { ...plain, width: 40 }, ['name']);
    expect(bars[0]).toMatch(/^a {2}█▓+· 502$/);
  });

  it('a period with a level missing is marked and left out of that level\'s change', () => {
    const { high: _h, ...noHigh } = point('2026-11-15', 7, 0, 22);
    const lines = seriesChart([point('2026-11-01', 12, 30, 20), point('2026-11-08', 10, 28, 20), { ...noHigh, total: 29 }], { ...plain, width: 80 });
    fits(lines, 80);
    expect(lines[2]).toMatch(/ 29 \?$/);
    expect(lines.some((l) => l.includes('? a level missing'))).toBe(true);
    expect(lines).toContain('open high 30 → 28, −7% since 2026-11-01 (last seen 2026-11-08)');
    expect(lines).toContain('open total 62 → 29, −53% since 2026-11-01');
  });
});

describe("seriesChart: the total is the service's own, or said to be a sum", () => {
  // `{ open: 12, critical: 2 }` was drawn as a bar of 2 with "open total 2 → 1": the sum of the one
  // level given, called the total, the service's own `open` ignored.
  const open = [{ date: '2026-11-01', open: 12, critical: 2 }, { date: '2026-11-08', open: 10, critical: 1 }];

  it("periods with `open` and some levels: bars as long as `open`, the rest of it drawn apart, its change named as the service's `open`", () => {
    const lines = seriesChart(open, { ...plain, width: 80 });
    fits(lines, 80);
    expect(lines[0]).toMatch(/^2026-11-01 {2}█+-+ 12$/);
    expect(lines[1]).toMatch(/^2026-11-08 {2}█+-+ +10$/);
    expect(lines).toContain('█ critical  - open beyond the levels');
    expect(lines).toContain('open critical 2 → 1, −50% since 2026-11-01');
    expect(lines).toContain("open total 12 → 10, −17% since 2026-11-01 (the service's `open`, inferred)");
    expect(lines.join('\n')).not.toContain('2 → 1, −50% since 2026-11-01 (');
  });

  it('a `total` of its own is the total (no inference said); levels that make it up draw no rest', () => {
    const lines = seriesChart([{ date: '2026-11-01', total: 12, open: 99, critical: 2 }, { date: '2026-11-08', total: 10, critical: 1 }], { ...plain, width: 80 });
    expect(lines).toContain('open total 12 → 10, −17% since 2026-11-01');
    expect(lines).toContain('█ critical  - total beyond the levels');
    expect(seriesChart(series3(), { ...plain, width: 80 }).join('\n')).not.toContain('beyond the levels');
  });

  it('no total of its own: the sum is "the total" only when all five levels are given', () => {
    const two = seriesChart([{ date: '2026-11-01', critical: 2, high: 3 }, { date: '2026-11-08', critical: 1, high: 1 }], { ...plain, width: 80 });
    expect(two).toContain('open sum of the levels shown 5 → 2, −60% since 2026-11-01');
    expect(two.join('\n')).not.toContain('open total');
    const one = seriesChart([{ date: '2026-11-01', critical: 2 }, { date: '2026-11-08', critical: 1 }], { ...plain, width: 80 });
    expect(one.filter((l) => l.startsWith('open '))).toEqual(['open critical 2 → 1, −50% since 2026-11-01']);
    const { total: _a, ...a } = point('2026-11-01', 1, 2, 3, 4, 5);
    const { total: _b, ...b } = point('2026-11-08', 1, 1, 1, 1, 1);
    expect(seriesChart([a, b], { ...plain, width: 80 })).toContain('open total 15 → 5, −67% since 2026-11-01');
  });
});

const series3 = () => [point('2026-11-01', 12, 30, 20, 5, 1), point('2026-11-08', 10, 28, 20, 5, 1)];

describe('countBars', () => {
  it('an object of counts: one bar a key, words for camelCase keys, within the width', () => {
    const lines = countBars({ open: 185, falsePositive: 20, processing: 0 }, { ...plain, width: 40 });
    fits(lines, 40);
    expect(lines[0]).toMatch(/^open {12}█+ 185$/);
    expect(displayWidth(lines[0])).toBe(40);
    expect(lines[1]).toMatch(/^false positive {2}█+ +20$/);
    expect(lines[2]).toMatch(/^processing +0$/);
  });

  it('a list of records: stacked by level, named by the first key present, with a legend', () => {
    const lines = countBars([{ repositoryName: 'payments-api', critical: 2, high: 3, total: 5 }, { repositoryId: 'repo_2', critical: 0, high: 1, total: 1 }], { ...plain, width: 80 }, ['repositoryName', 'repositoryId']);
    fits(lines, 80);
    expect(lines[0]).toMatch(/^payments-api {2}█+▓+ 5$/);
    expect(lines[1]).toMatch(/^repo_2 {8}▓+ +1$/);
    expect(lines[2]).toBe('█ critical  ▓ high');
    expect(countBars([], plain)).toEqual(['Nothing to count.']);
  });
});

describe('countBars of counts a double does not hold', () => {
  // A table gets the service's text of such a number (exact-json.ts withServiceText); the bars
  // printed the double (12345678901234567000) and left a count of 1e400 out without a line.
  it('shows the service\'s text of each count, and keeps a count of 1e400 as a line', () => {
    const lines = countBars({ fullScans: '12345678901234567890', prScans: '1e400', failedScans: 1 }, { ...plain, width: 80 });
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^full scans +█+ 12345678901234567890$/);
    expect(lines[1]).toMatch(/^pr scans +1e400$/);
    expect(lines[2]).toMatch(/ 1$/);
    fits(lines, 80);
  });
});
