/**
 * svc's release tree (scripts/release.mjs --tree, from the run's build) and its download, made once
 * per test run and shared by the files that run the CI files from it (as test/helpers/pack.ts shares
 * the packed package): the first caller writes into the run's shared folder, the others wait.
 *
 * - `tree`: the files a release tag holds (action.yml, bin/, dist/, node_modules/jq-wasm, ...);
 * - `archive`: those files as the release's download, svc-<version>.tar.gz with everything under
 *   svc-<version>/, and `sha256`, its SHA-256.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { tempDir } from './temp.js';

const ROOT = resolve(__dirname, '../..');
const run = promisify(execFile);

export interface ReleaseTree {
  tree: string;
  archive: string;
  sha256: string;
  version: string;
}

async function make(dir: string): Promise<ReleaseTree> {
  const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
  const tree = join(dir, 'tree');
  await run(process.execPath, [join(ROOT, 'scripts', 'release.mjs'), '--tree', tree]);
  const archive = join(dir, `svc-${version}.tar.gz`);
  await run('tar', ['-czf', archive, '--transform', `s,^\\.,svc-${version},`, '-C', tree, '.']);
  return { tree, archive, sha256: createHash('sha256').update(readFileSync(archive)).digest('hex'), version };
}

let mine: Promise<ReleaseTree> | undefined;

/** The release tree of this run's build. */
export function releaseTree(): Promise<ReleaseTree> {
  mine ??= shared();
  return mine;
}

async function shared(): Promise<ReleaseTree> {
  const root = process.env.SVC_TEST_SHARED;
  if (!root) return make(tempDir('svc-release-'));
  const dir = join(root, 'release');
  const result = join(root, 'release.json');
  let first = true;
  try {
    mkdirSync(dir);
  } catch {
    first = false;
  }
  if (first) {
    let made: ReleaseTree | { error: string };
    try {
      made = await make(dir);
    } catch (e) {
      made = { error: e instanceof Error ? e.message : String(e) };
    }
    writeFileSync(`${result}.part`, JSON.stringify(made));
    renameSync(`${result}.part`, result);
  }
  const end = Date.now() + 120_000;
  while (!existsSync(result)) {
    if (Date.now() > end) throw new Error(`release tree: no result in ${result} after 120 s`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const got = JSON.parse(readFileSync(result, 'utf8')) as ReleaseTree | { error: string };
  if ('error' in got) throw new Error(`the release tree could not be made: ${got.error}`);
  return got;
}
