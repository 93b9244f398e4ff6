import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { inProcessInclude } from './test/parts.js';

/**
 * The test files that start real processes (the built bin/svc.js, shells, a pty, git, npm): the ones
 * that import a spawning helper or node:child_process. They run in their own project, `process`;
 * everything else runs in the project `in-process` (test/unit, the helpers' own tests, and test/e2e:
 * the whole program through main()). Classified from the files, so a new test lands in the right project.
 * completion-cases drives the real shells (through shells.ts) for the completion-<shell> files.
 * (sandbox.ts imports run-svc too, for its `svc()`, unused by most of its users: not listed, so a file
 * that calls `sb.svc()` imports run-svc itself, as test/e2e/process.test.ts does.)
 */
const SPAWNS = /helpers\/(run-svc|pty|shells|sarif-multitool|git-repo|pack|release-tree|github-runner|completion-cases|demo-tour)\.js['"]|['"]node:child_process['"]/;
function testFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) return n === '__snapshots__' || n === 'fixtures' ? [] : testFiles(p);
    return n.endsWith('.test.ts') ? [p] : [];
  });
}
const spawning = testFiles('test').filter((f) => SPAWNS.test(readFileSync(f, 'utf8')));

/**
 * The order of the files: the projects one after the other (the spawning one first; the two are
 * one group, so an in-process file starts as soon as a worker is free: see `projects` below), and
 * within each project the longest files first, so the last files to start are short ones and no
 * worker idles long at the end.
 *
 * Projects are not mixed: vitest keeps a worker (with every module it has loaded) for the next file
 * only when that file is of the same project; a file of another project gets a new worker that loads
 * src/ and the helpers again. With the files sorted across projects the workers were replaced at
 * almost every file: 23 s of imports instead of 15 s, and 79-82 s for the whole run instead of 67 s
 * (idle 2-core machine).
 *
 * Durations come from vitest's cache of the last run (a file it has not seen goes first, as in
 * vitest's order). With no cache at all (a fresh checkout, as CI runs it): the spawning files by the
 * durations in test/durations.json (written by scripts/test-durations.mjs from a run's cache; a file
 * it does not list goes first), the in-process ones larger files first. By file size the spawning
 * group started its long files late (the bench and npm scripts files are short texts): its
 * three workers' busiest one ran ~10% longer than in the order of the durations (a replay of the
 * scheduling with one serial run's durations of each file: 55.8 s against 50.9 s).
 */
const PROJECT_ORDER = ['process', 'in-process'];

// The in-process files, every one or the part SVC_TEST_PART names (test/parts.ts).
const inProcess = inProcessInclude(process.env.SVC_TEST_PART);
const COLD_SECONDS: Record<string, number> = JSON.parse(readFileSync('test/durations.json', 'utf8'));
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const cache = this.ctx.cache;
    const path = (f: TestSpecification) => relative(this.ctx.config.root, f.moduleId);
    const key = (f: TestSpecification) => `${f.project.name}:${path(f)}`;
    const seen = (f: TestSpecification) => cache.getFileTestResults(key(f));
    const cold = files.every((f) => seen(f) === undefined);
    const weight = (f: TestSpecification): number => {
      if (cold && f.project.name === 'process') return COLD_SECONDS[path(f)] ?? Number.MAX_SAFE_INTEGER;
      if (cold) return (cache.getFileStats(key(f))?.size ?? statSync(f.moduleId).size);
      return seen(f)?.duration ?? Number.MAX_SAFE_INTEGER;
    };
    const failed = (f: TestSpecification) => (seen(f)?.failed ? 1 : 0);
    const rank = (f: TestSpecification) => PROJECT_ORDER.indexOf(f.project.name);
    return [...files].sort((a, b) => rank(a) - rank(b) || failed(b) - failed(a) || weight(b) - weight(a));
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
    // Transformed modules kept on disk (node_modules/.experimental-vitest-cache, keyed by each file's
    // content) for the next run: ~7 s less CPU of vitest's main thread on every run after the first.
    // A changed file is transformed again (checked: a changed exit code fails the tests that read it).
    experimental: { fsModuleCache: true },
    // vitest's default is one worker less than the CPUs: a single worker on CI's 2 cores, running
    // every file in turn. The in-process files keep a core busy each: two workers.
    maxWorkers: 2,
    sequence: { sequencer: LongestFirst },
    projects: [
      // One group (groupOrder 0 for all, so one worker count: 3), the spawning files first (the
      // sequencer above): much of their time is spent waiting on their children (shells, npm, servers,
      // retries' back-off), and the in-process files fill that wait as soon as the last spawning file
      // has started, instead of after the slowest one has ended (the README's release recipe alone
      // is 55-63 s). A fresh clone's run used 1.24 of 2 cores with two groups (CPU 256 s in 206 s).
      // The spawning files run in processes of their own (forks), not threads of vitest's process:
      // the in-process files now run beside them, and threads share the process's file descriptors
      // (with threads for all, 13 in-process files failed with EBADF on close, a descriptor closed
      // under them by another file of the process; which one was not found).
      { extends: true, test: { name: 'process', include: spawning, pool: 'forks', maxWorkers: 3, sequence: { groupOrder: 0 } } },
      // Every file that starts no process, test/unit and test/e2e alike, in one project: a worker and
      // the modules it loaded serve every in-process file. As two projects (unit, e2e) each had
      // workers of its own that loaded src/ and the helpers again: 81-86 CPU-s for these files
      // against 70-71 as one (alternated runs, 2 cores).
      { extends: true, test: { name: 'in-process', include: inProcess, exclude: spawning, maxWorkers: 3, sequence: { groupOrder: 0 } } },
    ],
  },
});
