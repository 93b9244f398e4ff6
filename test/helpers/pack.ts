/**
 * The package as `npm pack` makes it, packed once per test run and shared by the files that install
 * it (test/e2e/install.test.ts, test/e2e/examples.test.ts): each pack is an npm process (~0.7 s of
 * CPU). The first caller, in whichever worker, packs into the run's shared folder (SVC_TEST_SHARED,
 * made and removed by test/global-setup.ts); the others wait for what it wrote. Outside such a run
 * (no SVC_TEST_SHARED) each file packs into a temp folder of its own.
 *
 * The build is there already: the run's global setup made it. `--ignore-scripts`: packing must not
 * rebuild the checkout other files are running.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { tempDir } from './temp.js';

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

async function shared(): Promise<Packed> {
  const root = process.env.SVC_TEST_SHARED;
  if (!root) {
    const dir = tempDir('svc-pack-');
    return npmPack('.', dir, join(dir, 'npm-cache'));
  }
  const dir = join(root, 'pack');
  const result = join(root, 'pack.json');
  let first = true;
  try {
    mkdirSync(dir);
  } catch {
    first = false;
  }
  if (first) {
    let made: Packed | { error: string };
    try {
      made = await npmPack('.', dir, join(root, 'npm-cache'));
    } catch (e) {
      made = { error: e instanceof Error ? e.message : String(e) };
    }
    writeFileSync(`${result}.part`, JSON.stringify(made));
    renameSync(`${result}.part`, result);
  }
  const end = Date.now() + 120_000;
  while (!existsSync(result)) {
    if (Date.now() > end) throw new Error(`npm pack: no result in ${result} after 120 s`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const got = JSON.parse(readFileSync(result, 'utf8')) as Packed | { error: string };
  if ('error' in got) throw new Error(`npm pack failed: ${got.error}`);
  return got;
}
