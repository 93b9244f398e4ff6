/**
 * `npm run fail-rate` (scripts/fail-rate-check.mjs, package.json's script: test/e2e/npm-scripts.test.ts)
 * in small: 10 reads and 8 changes against two sandboxes with `--fail-rate 0.3`. Each sandbox is
 * seeded and its runs go one after the other, so every run meets the same faults each time: the
 * outcome is deterministic, and with seed 1 it holds every path checked below (a read retried
 * through a fault, a change retried after a 429, a change refused with a 5xx and not retried). The per-run records are checked here,
 * not only the script's verdict: a change reaches the handler at most once, a second request is
 * sent only after a 429, svc's exit code tells the truth about the change, and reads fail only
 * when every try was refused.
 */
import { runProgram, type RunResult } from '../helpers/run-svc.js';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SCRIPT = resolve(__dirname, '../../scripts/fail-rate-check.mjs');

interface Run {
  kind: 'read' | 'change';
  code: number;
  received: number;
  refused: number;
  handled: number;
  retries: number;
  retriedAfter: number[];
  applied?: boolean;
  error?: string;
}

function runScript(args: string[]): Promise<RunResult> {
  return runProgram(process.execPath, [SCRIPT, ...args], { env: process.env, timeoutMs: 120_000 });
}

describe('reads and changes against a sandbox failing 30% of requests', () => {
  it('reads are retried and nearly all succeed; no change ever reaches the service twice', async () => {
    const r = await runScript(['--reads', '10', '--mutations', '8', '--lanes', '2', '--fail-rate', '0.3', '--seed', '1', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const { summary, runs } = JSON.parse(r.stdout) as { summary: any; runs: Run[] };
    const reads = runs.filter((x) => x.kind === 'read');
    const changes = runs.filter((x) => x.kind === 'change');
    expect(reads).toHaveLength(10);
    expect(changes).toHaveLength(8);

    // Faults were injected (a third of requests or so), and reads were retried through them.
    const requests = runs.reduce((n, x) => n + x.received, 0);
    const refused = runs.reduce((n, x) => n + x.refused, 0);
    expect(refused).toBeGreaterThan(0);
    expect(reads.some((x) => x.code === 0 && x.received > 1)).toBe(true);
    expect(refused / requests).toBeLessThan(0.6);

    for (const x of reads) {
      // Each try is either refused by a fault or answered; svc warns once per retry.
      expect(x.received).toBe(x.refused + x.handled);
      expect(x.retries).toBe(x.received - 1);
      if (x.code === 0) expect(x.handled).toBe(1);
      else {
        // A read fails only when all 1 + --retries tries were refused.
        expect({ code: [5, 6].includes(x.code), received: x.received, refused: x.refused }).toEqual({ code: true, received: 3, refused: 3 });
        expect(x.error).toMatch(/gave up after 3 tries/);
      }
    }
    expect(reads.filter((x) => x.code === 0).length).toBeGreaterThanOrEqual(9);

    for (const x of changes) {
      // Never handled twice; a request is sent again only after a 429 (refused, so nothing happened).
      expect(x.handled).toBeLessThanOrEqual(1);
      expect(x.received).toBe(x.refused + x.handled);
      expect(x.retriedAfter.every((status) => status === 429)).toBe(true);
      // svc's exit code tells the truth: 0 exactly when the change was applied.
      expect({ ok: x.code === 0, applied: x.applied, handled: x.handled }).toEqual(
        x.code === 0 ? { ok: true, applied: true, handled: 1 } : { ok: false, applied: false, handled: 0 },
      );
      if (x.code !== 0) expect(x.error).toMatch(/HTTP (5\d\d|429)/);
    }
    // 5xx on a change is not retried, so some changes fail where a read would have been retried.
    expect(changes.some((x) => x.code === 6)).toBe(true);
    // A change refused with a 429 was sent again (nothing had happened) and then applied.
    expect(changes.some((x) => x.retriedAfter.length > 0 && x.code === 0 && x.applied)).toBe(true);
    expect(summary.changes).toMatchObject({ handledTwice: 0, appliedButFailed: 0, succeededButNotApplied: 0 });
    expect(summary.reads.succeeded).toBe(reads.filter((x) => x.code === 0).length);
  }, 120_000); // 18 runs of the built bin: a few seconds on a quiet 2-core machine, several times that on a busy one
});

describe('the report (without --json)', () => {
  it('names the sandboxes, the reads and the changes, and that no change reached the service twice', async () => {
    const r = await runScript(['--reads', '1', '--mutations', '1', '--lanes', '1']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^fail-rate check: 1 sandbox \(seeds 1\) with --fail-rate 0\.3; svc with --retries 2 \(its default\)\n/);
    expect(r.stdout).toMatch(/^reads \(svc issues search\): 1 runs, \d succeeded/m);
    expect(r.stdout).toMatch(/^changes \(svc issues archive\): 1 runs, \d succeeded/m);
    expect(r.stdout).toMatch(/reached the service twice: 0/);
  }, 120_000);
});
