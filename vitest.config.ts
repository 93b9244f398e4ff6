import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The test files that start real processes (the built bin/svc.js, shells, a pty, git, npm): the ones
 * that import a spawning helper or node:child_process. They run in their own project, `process`;
 * everything else runs in-process (`unit`: test/unit and the helpers' own tests; `e2e`: the whole
 * program through main()). Classified from the files, so a new test lands in the right project.
 */
const SPAWNS = /helpers\/(run-svc|pty|shells|sarif-multitool|git-repo|pack)\.js['"]|['"]node:child_process['"]/;
function testFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) return n === '__snapshots__' || n === 'fixtures' ? [] : testFiles(p);
    return n.endsWith('.test.ts') ? [p] : [];
  });
}
const spawning = testFiles('test').filter((f) => SPAWNS.test(readFileSync(f, 'utf8')));

/**
 * Longest files first across the three projects (vitest's own order runs the projects one after
 * the other, so the longest files, the spawning ones, started only once every e2e file had): the
 * last files to start are then the short ones, and neither worker idles long at the end. Durations
 * from vitest's cache of the last run (a file it has not seen goes first, as in vitest's order);
 * with no cache at all (a fresh checkout), the spawning files first, then the larger files.
 */
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const cache = this.ctx.cache;
    const key = (f: TestSpecification) => `${f.project.name}:${relative(this.ctx.config.root, f.moduleId)}`;
    const seen = (f: TestSpecification) => cache.getFileTestResults(key(f));
    const cold = files.every((f) => seen(f) === undefined);
    const weight = (f: TestSpecification): number => {
      if (cold) return (f.project.name === 'process' ? 1e9 : 0) + (cache.getFileStats(key(f))?.size ?? statSync(f.moduleId).size);
      return seen(f)?.duration ?? Number.MAX_SAFE_INTEGER;
    };
    const failed = (f: TestSpecification) => (seen(f)?.failed ? 1 : 0);
    return [...files].sort((a, b) => failed(b) - failed(a) || weight(b) - weight(a));
  }
}

export default defineConfig({
  test: {
    globalSetup: ['test/global-setup.ts'],
    setupFiles: ['test/setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Threads start faster than forked processes, and without per-file isolation each worker loads
    // src/ once instead of once per test file. Safe here: no test mocks modules or stubs globals,
    // and every test builds its own host, sandbox or server.
    pool: 'threads',
    isolate: false,
    // vitest's default is one worker less than the CPUs: a single worker on CI's 2 cores, running
    // every file in turn. Much of the suite waits (spawned bins and shells, servers, timeouts), so
    // two workers keep both cores busy (three made the slowest script tests time out under load).
    maxWorkers: 2,
    sequence: { sequencer: LongestFirst },
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts', 'test/helpers/**/*.test.ts'], exclude: spawning } },
      { extends: true, test: { name: 'e2e', include: ['test/e2e/**/*.test.ts'], exclude: spawning } },
      { extends: true, test: { name: 'process', include: spawning } },
    ],
  },
});
