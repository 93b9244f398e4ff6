/**
 * The package as `npm pack` makes it, packed once per test run (once-per-run.ts) for the files that
 * install it (test/e2e/install.test.ts): each pack is an npm process (~0.7 s of CPU).
 *
 * The build is there already: the run's global setup made it. `--ignore-scripts`: packing must not
 * rebuild the checkout other files are running.
 */
import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { tempDir } from './temp.js';
import { oncePerRun } from './once-per-run.js';

const ROOT = resolve(__dirname, '../..');

export interface Packed {
  /** The tarball's absolute path. */
  tarball: string;
  /** The paths inside the package, as `npm pack --json` lists them. */
  files: string[];
}

/** `npm pack --json` of `what` into `dir`. */
export async function npmPack(what: string, dir: string, cache: string): Promise<Packed> {
  const out = await promisify(execFile)('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir, what], {
    cwd: ROOT, env: { ...process.env, npm_config_cache: cache, npm_config_update_notifier: 'false' },
  });
  const [made] = JSON.parse(out.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
  return { tarball: join(dir, made.filename), files: made.files.map((f) => f.path) };
}

let mine: Promise<Packed> | undefined;

/** svc's own package, packed once per run. */
export function packedSvc(): Promise<Packed> {
  mine ??= shared();
  return mine;
}

function shared(): Promise<Packed> {
  return oncePerRun('pack', (dir) => npmPack('.', dir, join(process.env.SVC_TEST_SHARED ?? dir, 'npm-cache')), () => tempDir('svc-pack-'));
}
