import { describe, expect, it } from 'vitest';
import { count, duration } from '../../../src/terminal/progress.js';

describe('progress numbers', () => {
  it('count groups thousands as toLocaleString("en-US") does', () => {
    for (const n of [0, 7, 999, 1000, 12_345, 100_000, 1_234_567, -1_000, Number.MAX_SAFE_INTEGER]) {
      expect(count(n)).toBe(n.toLocaleString('en-US'));
    }
    expect(count(56_238)).toBe('56,238');
  });

  it('duration', () => {
    expect(duration(45_000)).toBe('45s');
    expect(duration(185_000)).toBe('3m 05s');
  });
});

describe('progress in a CI job', () => {
  async function lines(env: Record<string, string>, globals: { ci?: boolean } = {}): Promise<string[]> {
    const { startProgress } = await import('../../../src/terminal/progress.js');
    let now = 0;
    const notes: string[] = [];
    const ctx = { io: { stderrIsTTY: false, stderr: {} }, env, globals, now: () => now, note: (l: string) => notes.push(l) };
    const p = await startProgress(ctx as never, 'start');
    for (let t = 0; t <= 12_000; t += 1_000) {
      now = t;
      p.update(`at ${t}`);
    }
    p.stop();
    return notes;
  }

  it('writes a plain line every 5 seconds instead of a spinner', async () => {
    expect(await lines({ CI: 'true' })).toEqual(['at 5000', 'at 10000']);
    expect(await lines({ GITLAB_CI: 'true' })).toEqual(['at 5000', 'at 10000']);
  });

  it('writes nothing outside CI, with CI=false or --no-ci', async () => {
    expect(await lines({})).toEqual([]);
    expect(await lines({ CI: 'false' })).toEqual([]);
    expect(await lines({ CI: 'true' }, { ci: false })).toEqual([]);
  });
});
