/**
 * Help as it should fit (issue 36.7), the real bin on an 80x24 terminal: the screens that were wrapped
 * twice (hand-wrapped text fitted again line by line: ragged lines, the exit codes run together) and
 * the sandbox banner, which a terminal wrapped in the middle of words.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { runOnPty, ptyAvailable, type PtyResult } from '../helpers/pty.js';
import { terminalScreen } from '../helpers/terminal-screen.js';
import { runTogether, underfilled } from '../helpers/help-fit.js';
import { has } from '../helpers/shells.js';

const SCREENS = [['gate', '--help'], ['issues', 'triage', '--help'], ['auth', 'status', '--help'], ['help', 'environment'], ['--help']];

/** Each screen drawn once per file, on an 80x24 pty: the tests that read the same screen read the same run. */
const drawn = new Map<string, Promise<PtyResult>>();
function screen(argv: string[]): Promise<PtyResult> {
  const key = argv.join(' ');
  if (!drawn.has(key)) drawn.set(key, runOnPty(argv, [], { cols: 80, rows: 24 }));
  return drawn.get(key)!;
}

describe.runIf(ptyAvailable())('help at 80 columns on a terminal: fitted once, from paragraphs', () => {
  it.each(SCREENS.map((argv) => [argv.join(' '), argv]))('svc %s', async (_name, argv) => {
    const r = await screen(argv as string[]);
    expect(r.code).toBe(0);
    const lines = terminalScreen(r.output);
    const text = lines.join('\n');
    expect(lines.filter((l) => l.length > 80)).toEqual([]);
    expect(underfilled(text, 80)).toEqual([]);
    expect(runTogether(text)).toEqual([]);
  });

  it('svc --help: the closing paragraph is one paragraph, the topics a list of commands', async () => {
    const r = await screen(['--help']);
    const lines = terminalScreen(r.output);
    // It was two paragraphs wrapped by hand ("for\nflags and examples.\nEvery API command ...").
    expect(lines.some((l) => / examples\. Every API command/.test(l))).toBe(true);
    expect(lines.filter((l) => / \|$/.test(l))).toEqual([]);
    expect(lines.join(' ')).toMatch(/Help topics: svc help exit-codes, svc help environment, +svc help output, +svc help global-flags\./);
  });

  it('svc gate --help and auth status --help: one exit code a line', async () => {
    const [gate, auth] = await Promise.all([screen(['gate', '--help']), screen(['auth', 'status', '--help'])]);
    const g = terminalScreen(gate.output);
    for (const [code, meaning] of [[0, 'passed'], [1, 'a threshold was broken'], [8, 'the scan is still queued'], [130, 'interrupted']] as const) {
      expect(g.some((l) => new RegExp(`^ {2,4}${code}  ${meaning}`).test(l)), `gate: ${code}`).toBe(true);
    }
    const a = terminalScreen(auth.output);
    for (const code of [0, 2, 3, 4, 6]) expect(a.some((l) => new RegExp(`^  ${code}  [a-z]`).test(l)), `auth status: ${code}`).toBe(true);
  });

  it.runIf(has('bash'))('the sandbox banner fits 80 columns, no word split, and still pastes into a shell', async () => {
    const r = await runOnPty(['sandbox', '--port', '0', '--quiet'], [['Ready in', '\u0003']], { cols: 80, timeoutMs: 20_000 });
    const lines = terminalScreen(r.output);
    expect(lines.filter((l) => l.length > 80)).toEqual([]);
    const block = lines.slice(lines.findIndex((l) => l.startsWith('# svc sandbox on')), lines.findIndex((l) => l.startsWith('Ready in')));
    expect(block.length).toBeGreaterThan(3);
    // Every line of the block is a comment, the export, or a continuation of it: pasted, it sets the three variables.
    expect(block.every((l) => /^(# |export |  SVC_)/.test(l))).toBe(true);
    const pasted = await new Promise<string>((resolve) => {
      const sh = spawn('bash', ['-c', `${block.join('\n')}\necho "$SVC_BASE_URL|$SVC_API_TOKEN_ID|$SVC_API_TOKEN_SECRET"`], { stdio: ['ignore', 'pipe', 'inherit'] });
      let out = '';
      sh.stdout.on('data', (d) => { out += d; });
      sh.on('close', () => resolve(out));
    });
    expect(pasted).toMatch(/^http:\/\/127\.0\.0\.1:\d+\|5a4db0c5-0000-4000-8000-000000000001\|sandbox-only-secret-not-for-production\n$/);
  });
});
