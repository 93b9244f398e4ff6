/**
 * svc's release tree (scripts/release.mjs --tree, from the run's build) and its download, made once
 * per test run (once-per-run.ts) for the files that run the CI files from it.
 *
 * - `tree`: the files a release tag holds (action.yml, bin/, dist/, node_modules/jq-wasm, ...);
 * - `archive`: those files as the release's download, svc-<version>.tar.gz with everything under
 *   svc-<version>/, and `sha256`, its SHA-256.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { tempDir } from './temp.js';
import { oncePerRun } from './once-per-run.js';

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

function shared(): Promise<ReleaseTree> {
  return oncePerRun('release', make, () => tempDir('svc-release-'));
}
