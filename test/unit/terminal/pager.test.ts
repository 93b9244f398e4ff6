/** svc's own pager (src/terminal/pager.ts): which pager, lines that fit, one screen, the keys. */
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { choosePager, pageLines, pagerMove, pagerScreen } from '../../../src/terminal/pager.js';
import { tempDir } from '../../helpers/temp.js';

// eslint-disable-next-line no-control-regex
const visible = (s: string) => s.replace(/\u001b\[[0-9;]*m/g, '');

describe('choosePager', () => {
  const withLess = () => {
    const dir = tempDir('svc-pager-');
    writeFileSync(join(dir, 'less'), '#!/bin/sh\n');
    chmodSync(join(dir, 'less'), 0o755);
    return dir;
  };
  it('SVC_PAGER first, then PAGER, then less on PATH, else its own', () => {
    const path = withLess();
    expect(choosePager({ SVC_PAGER: 'most', PAGER: 'more', PATH: path }, 'linux')).toEqual({ kind: 'command', command: 'most', from: 'SVC_PAGER' });
    expect(choosePager({ PAGER: 'less -S', PATH: path }, 'linux')).toEqual({ kind: 'command', command: 'less -S', from: 'PAGER' });
    expect(choosePager({ PATH: path }, 'linux')).toEqual({ kind: 'command', command: 'less', from: 'less on PATH' });
    expect(choosePager({ PATH: tempDir('svc-nopager-') }, 'linux')).toEqual({ kind: 'builtin' });
  });
  it('an empty SVC_PAGER or PAGER, or cat (which pages nothing), picks its own', () => {
    const path = withLess();
    expect(choosePager({ SVC_PAGER: '', PAGER: 'less', PATH: path }, 'linux')).toEqual({ kind: 'builtin' });
    expect(choosePager({ PAGER: ' ', PATH: path }, 'linux')).toEqual({ kind: 'builtin' });
    expect(choosePager({ PAGER: 'cat', PATH: path }, 'linux')).toEqual({ kind: 'builtin' });
  });
});

describe('pageLines', () => {
  it('continues a long line on the next, never wider than the width, wide characters whole', () => {
    const lines = pageLines(`short\n${'x'.repeat(25)}\n${'漢'.repeat(7)}\n`, 10);
    expect(lines).toEqual(['short', 'x'.repeat(10), 'x'.repeat(10), 'x'.repeat(5), '漢'.repeat(5), '漢'.repeat(2)]);
  });
  it('carries a colour over the break: closed at the end of a row, opened again on the next', () => {
    const lines = pageLines(`\u001b[1mTitle\u001b[22m \u001b[32m${'+'.repeat(12)}\u001b[39m`, 10);
    expect(lines.map(visible)).toEqual(['Title ++++', '+'.repeat(8)]);
    expect(lines[0].endsWith('\u001b[0m')).toBe(true);
    expect(lines[1].startsWith('\u001b[32m')).toBe(true);
  });
});

describe('pagerScreen and pagerMove', () => {
  const lines = Array.from({ length: 50 }, (_, i) => `line ${i + 1}`);
  it('fills exactly the height: the lines from the top, then a status line within the width', () => {
    const screen = pagerScreen(lines, 0, 80, 24);
    expect(screen).toHaveLength(24);
    expect(screen.slice(0, 23)).toEqual(lines.slice(0, 23));
    expect(visible(screen[23])).toMatch(/^lines 1-23 of 50  /);
    expect(visible(pagerScreen(lines, 27, 80, 24)[23])).toMatch(/^lines 28-50 of 50 \(end\)/);
    expect(visible(pagerScreen(lines, 0, 30, 24)[23]).length).toBeLessThanOrEqual(30);
    const short = pagerScreen(lines.slice(0, 3), 0, 80, 24);
    expect(short).toHaveLength(24);
    expect(visible(short[23])).toMatch(/^all 3 lines/);
  });
  it('moves by a line, a page, to the ends, never past them; q, Esc and o go back', () => {
    expect(pagerMove('j', 0, 50, 24)).toBe(1);
    expect(pagerMove('\u001b[B', 0, 50, 24)).toBe(1);
    expect(pagerMove('k', 0, 50, 24)).toBe(0);
    expect(pagerMove(' ', 0, 50, 24)).toBe(23);
    expect(pagerMove(' ', 23, 50, 24)).toBe(27);
    expect(pagerMove('b', 27, 50, 24)).toBe(4);
    expect(pagerMove('G', 0, 50, 24)).toBe(27);
    expect(pagerMove('g', 27, 50, 24)).toBe(0);
    expect(pagerMove('j', 0, 10, 24)).toBe(0);
    for (const k of ['q', '\u001b', 'o']) expect(pagerMove(k, 5, 50, 24)).toBe('back');
    expect(pagerMove('x', 5, 50, 24)).toBeUndefined();
  });
});
