/**
 * The width svc lays text out for (src/core/host.ts): a terminal that reports 0 columns (docker exec -t,
 * some CI pseudo-terminals, serial consoles) is a terminal of unknown width, never one 0 wide;
 * COLUMNS counts where the terminal says nothing, and for tables off a terminal. Every place that
 * reads a width goes through host.ts.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { givenWidth, layoutWidth, terminalWidth } from '../../../src/core/host.js';
import { testHost } from '../../helpers/host.js';
import { useSandbox } from '../../helpers/sandbox.js';

const sb = useSandbox();

describe('givenWidth', () => {
  it.each([[80, 80], ['132', 132], [' 90 ', 90]])('%j is %j', (value, width) => {
    expect(givenWidth(value)).toBe(width);
  });
  it.each([0, -3, NaN, Infinity, 2.5, '', '0', '-1', 'wide', '80px', undefined, null])('%j says nothing', (value) => {
    expect(givenWidth(value)).toBeUndefined();
  });
});

describe('terminalWidth and layoutWidth', () => {
  const host = (columns: number | undefined, tty: boolean, env: Record<string, string> = {}) => {
    const h = testHost({ tty, columns, env });
    return h;
  };

  it('a terminal\'s own positive width wins, even over COLUMNS (it follows a resize; an exported COLUMNS goes stale)', () => {
    expect(terminalWidth(host(132, true, { COLUMNS: '60' }))).toBe(132);
    expect(terminalWidth(host(132, true), 'stderr')).toBe(132);
  });

  it('a terminal that reports 0 columns is 80 wide, or COLUMNS when that is a positive whole number', () => {
    expect(terminalWidth(host(0, true))).toBe(80);
    expect(terminalWidth(host(0, true), 'stderr')).toBe(80);
    expect(terminalWidth(host(0, true, { COLUMNS: '0' }))).toBe(80);
    expect(terminalWidth(host(0, true, { COLUMNS: '150' }))).toBe(150);
    expect(layoutWidth(host(0, true))).toBe(80);
  });

  it('off a terminal there is no terminal width; tables take COLUMNS, else their default (undefined here)', () => {
    expect(terminalWidth(host(undefined, false, { COLUMNS: '200' }))).toBeUndefined();
    expect(layoutWidth(host(undefined, false, { COLUMNS: '200' }))).toBe(200);
    expect(layoutWidth(host(undefined, false, { COLUMNS: '-5' }))).toBeUndefined();
    expect(layoutWidth(host(undefined, false))).toBeUndefined();
  });
});

describe('a terminal that reports 0 columns (in-process: stdout and stderr terminals of width 0)', () => {
  const at0 = (argv: string[]) => sb.run(argv, { tty: true, columns: 0 });

  it('an error is wrapped at 80 columns, not one word a line', async () => {
    const r = await at0(['issues', 'serch']);
    expect(r.code).toBe(2);
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines.length).toBeLessThanOrEqual(3);
    expect(lines[0]).toMatch(/^svc: error: unknown operation 'serch' of 'svc issues'/);
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(80);
  });

  it('help is laid out at 80 columns', async () => {
    const [zero, eighty] = await Promise.all([at0(['issues', 'search', '--help']), sb.run(['issues', 'search', '--help'], { tty: true, columns: 80 })]);
    expect(zero.code).toBe(0);
    expect(zero.stdout).toBe(eighty.stdout);
  });

  it('a table is laid out as on an 80-column terminal, and the note says 80', async () => {
    const [zero, eighty] = await Promise.all([at0(['issues', 'search', '--page-size', '5']), sb.run(['issues', 'search', '--page-size', '5'], { tty: true, columns: 80 })]);
    expect(zero.code).toBe(0);
    expect(zero.stdout).toBe(eighty.stdout);
    expect(zero.stderr).toContain('Not shown at 80 columns');
    expect(zero.stderr).not.toContain('at 0 columns');
    // eslint-disable-next-line no-control-regex
    expect(zero.stdout.replace(/\u001b\[[0-9;]*m/g, '')).toMatch(/^ID +LEVEL +SCORE +REPOSITORY +TITLE/m);
  });
});

describe('every width svc reads goes through src/core/host.ts', () => {
  const SRC = resolve(__dirname, '../../../src');
  const files = (dir: string): string[] => readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? files(p) : /\.ts$/.test(n) ? [p] : [];
  });
  // The process's own stream (entry.ts builds the Host from it) and host.ts itself read it.
  const ALLOWED = new Set(['core/host.ts', 'entry.ts']);

  it('no other file reads a stream\'s or the Host\'s columns, or COLUMNS', () => {
    const readers = files(SRC).filter((f) => !ALLOWED.has(relative(SRC, f)))
      .flatMap((f) => readFileSync(f, 'utf8').split('\n').map((line, i) => ({ f, line, i })))
      .filter(({ line }) => /\b(io|stdout|stderr|process\.stdout|process\.stderr)\)?\.columns\b|\}\)\.columns\b|\benv\.COLUMNS\b|\['COLUMNS'\]/.test(line))
      // A width checked for being a width at all (a spinner needs one) goes through givenWidth.
      .filter(({ line }) => !/givenWidth\(/.test(line))
      .map(({ f, line, i }) => `${relative(SRC, f)}:${i + 1}: ${line.trim()}`);
    expect(readers, 'use terminalWidth/layoutWidth (or givenWidth) from src/core/host.ts').toEqual([]);
  });
});

describe('-o table off a terminal', () => {
  // eslint-disable-next-line no-control-regex
  const widest = (text: string) => Math.max(...text.split('\n').map((l) => [...l].length));

  it('is COLUMNS wide when that is a positive whole number, so a table file can keep whole titles', async () => {
    const argv = ['issues', 'search', '-o', 'table', '--page-size', '20'];
    const titles = (await sb.runJson<{ issues: Array<{ generatedTitle: string }> }>(['issues', 'search', '--page-size', '20'])).issues.map((i) => i.generatedTitle);
    const [wide, plain, zero] = await Promise.all([sb.run(argv, { env: { COLUMNS: '250' } }), sb.run(argv), sb.run(argv, { env: { COLUMNS: '0' } })]);
    expect(wide.code).toBe(0);
    expect(widest(wide.stdout)).toBeGreaterThan(120);
    expect(widest(wide.stdout)).toBeLessThanOrEqual(250);
    for (const title of titles) expect(wide.stdout).toContain(title);
    expect(wide.stdout).not.toContain('…');
    // Unset, or not a width: the default 120.
    expect(widest(plain.stdout)).toBeLessThanOrEqual(120);
    expect(zero.stdout).toBe(plain.stdout);
  });
});
