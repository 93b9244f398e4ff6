/**
 * Once per run: build bin/svc (the spawn tests run it; not with SVC_TEST_NO_BUILD=1), and give the run its own temp folder.
 * Every test file gets a folder of its own under it as TMPDIR (test/setup.ts), so a leak is named by
 * file and another developer's run on the same machine is never mistaken for one. At the end the
 * run's folder must be empty: anything left fails the run, and is removed.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statfsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Where the run's temporary folders go: /dev/shm when it is a tmpfs with room (Linux, outside small
 * containers), else the system's temporary directory. The tests make and remove thousands of
 * folders and files (a folder per test, the gate's spill file, config files written atomically,
 * `npm ci` of the README's release recipe, git repositories); on this project's ext4 disk a mkdtemp
 * and rmdir cost 3.1 ms (0.72 ms of CPU), on tmpfs 0.11 ms (0.04 ms). `SVC_TEST_TMPFS=0` keeps the
 * system's temporary directory (to run the tests on the disk a user's TMPDIR is on).
 */
function tempRoot(): string {
  const shm = '/dev/shm';
  const TMPFS_MAGIC = 0x01021994;
  const ROOM = 2 * 1024 ** 3;
  if (process.env.SVC_TEST_TMPFS === '0' || process.platform !== 'linux') return tmpdir();
  try {
    const fs = statfsSync(shm);
    return fs.type === TMPFS_MAGIC && fs.bavail * fs.bsize >= ROOM ? shm : tmpdir();
  } catch {
    return tmpdir();
  }
}

/** Set once per run: each vitest project (unit, e2e, process) calls this setup; the first does the work. */
const DONE = Symbol.for('svc.test.globalSetup');

export default function setup(): () => void {
  const g = globalThis as { [DONE]?: boolean };
  if (g[DONE]) return () => {};
  g[DONE] = true;
  // Every server a test talks to is on 127.0.0.1 with the test's own certificate (a test that needs a
  // CA sets NODE_EXTRA_CA_CERTS itself), so the machine's bundle is of no use to the processes the
  // tests start, and node reads it at every start: ~0.1 s of CPU per process (the suite starts
  // hundreds of node processes: svc, npm, scripts) on machines that set it. Before the workers start,
  // so none of them, and nothing they spawn, inherits it. npm keeps its own `cafile` setting.
  delete process.env.NODE_EXTRA_CA_CERTS;
  // Where a spawned svc keeps the code cache of another node or other V8 flags (bin/svc.js): the
  // run's own, never the developer's ~/.cache, and not under the run's folder (which must end empty).
  const temp = tempRoot();
  const cacheHome = mkdtempSync(join(temp, 'svc-test-cache-'));
  process.env.XDG_CACHE_HOME = cacheHome;
  // What several files share for the whole run (the packed tarball, test/helpers/pack.ts): made
  // once, by whichever file asks first, removed at the end.
  const shared = mkdtempSync(join(temp, 'svc-test-shared-'));
  process.env.SVC_TEST_SHARED = shared;
  // Only the spawning tests (the `process` project) run the built bin: `npm run test:unit` skips the build.
  // As the README says to build (`npm run build`), so that every run goes through that command too.
  if (process.env.SVC_TEST_NO_BUILD !== '1') execFileSync('npm', ['run', 'build', '--silent'], { stdio: 'inherit', env: { ...process.env, npm_config_update_notifier: 'false' } });
  // Made here, in vitest's main process, and removed by the teardown below.
  const root = mkdtempSync(join(temp, 'svc-test-run-'));
  process.env.SVC_TEST_TMP_ROOT = root;
  return () => {
    rmSync(cacheHome, { recursive: true, force: true, maxRetries: 3 });
    rmSync(shared, { recursive: true, force: true, maxRetries: 3 });
    const left: string[] = [];
    for (const file of readdirSync(root)) {
      const entries = readdirSync(join(root, file));
      left.push(...entries.map((e) => `${file}: ${e}`));
    }
    rmSync(root, { recursive: true, force: true, maxRetries: 3 });
    if (left.length) {
      // A throw here is only logged by vitest ("error during close"); the exit code must say it too.
      process.exitCode = 1;
      console.error(`\nFAIL: tests left ${left.length} entries in the temp folder (fix the test file named; tempDir() from test/helpers/temp.ts cleans up by itself):\n  ${left.join('\n  ')}\n`);
    }
  };
}
