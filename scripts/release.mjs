#!/usr/bin/env node
/**
 * `npm run release`: svc as a prebuilt release, as JavaScript actions ship. It builds, then commits
 * the release tree (below) on top of HEAD without touching the branch, tags that commit
 * v<package.json version>, moves the major tag (v0 for 0.x) to it, and writes the download of the
 * same tree with its SHA-256 (svc-<version>.tar.gz, svc-<version>.tar.gz.sha256) for CIs that fetch
 * svc instead of `uses:` (the GitLab component). Pushing is the caller's: the commands are printed.
 *
 * The release tree: what runs svc and nothing to install or build. action.yml (the runner runs
 * dist/action.cjs with its own Node), bin/ and dist/ (the two bundles, their code caches, the help), the one
 * runtime package the bundle leaves out (jq's WebAssembly for --jq, node_modules/jq-wasm, loaded by
 * bin/svc.js's require as from an npm install), the GitLab component (templates/), package.json
 * (its version is `svc --version`), README.md and LICENSE.
 *
 *   node scripts/release.mjs                 build, commit, tag, archive (a clean checkout; git's user set)
 *   node scripts/release.mjs --tree DIR      only write the release tree of the current build into DIR
 *   node scripts/release.mjs --no-build      use the dist/ that is there
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

/** The files of the release tree, each as [path in the tree, path in this checkout]. */
function files() {
  const jq = join(ROOT, 'node_modules', 'jq-wasm');
  const list = [
    ['action.yml', 'action.yml'],
    ['bin/svc.js', 'bin/svc.js'],
    ['bin/package.json', 'bin/package.json'],
    ['dist/svc.cjs', 'dist/svc.cjs'],
    ['dist/svc.cjs.cache', 'dist/svc.cjs.cache'],
    // What a plain API call never runs (built-ins, the gate, tables...): bin/svc.js loads it by need.
    ['dist/svc-more.cjs', 'dist/svc-more.cjs'],
    ['dist/svc-more.cjs.cache', 'dist/svc-more.cjs.cache'],
    ['dist/help.txt', 'dist/help.txt'],
    ['dist/action.cjs', 'dist/action.cjs'],
    ['templates/svc-gate.yml', 'templates/svc-gate.yml'],
    ['README.md', 'README.md'],
    ['LICENSE', 'LICENSE'],
    // What require('jq-wasm') loads (its package.json's exports: node, require) and the WebAssembly it reads.
    ['node_modules/jq-wasm/package.json', join(jq, 'package.json')],
    ['node_modules/jq-wasm/LICENSE', join(jq, 'LICENSE')],
    ['node_modules/jq-wasm/dist/index.cjs', join(jq, 'dist', 'index.cjs')],
    ['node_modules/jq-wasm/dist/build/jq.wasm', join(jq, 'dist', 'build', 'jq.wasm')],
  ];
  const missing = list.filter(([, from]) => !existsSync(resolve(ROOT, from))).map(([, from]) => from);
  if (missing.length) fail(`missing ${missing.join(', ')}: run \`npm ci && npm run build\` first`);
  return list;
}

/** package.json as a release needs it: what it is and runs on, no scripts or development packages. */
function releasePackageJson() {
  const keep = ['name', 'version', 'description', 'homepage', 'bugs', 'repository', 'type', 'bin', 'engines', 'license', 'dependencies'];
  return `${JSON.stringify(Object.fromEntries(keep.filter((k) => k in pkg).map((k) => [k, pkg[k]])), null, 2)}\n`;
}

/** Writes the release tree of the current build into `dir` (made if needed; must be empty). */
export function writeTree(dir) {
  mkdirSync(dir, { recursive: true });
  if (readdirSync(dir).length > 0) fail(`${dir} is not empty`);
  for (const [to, from] of files()) {
    mkdirSync(dirname(join(dir, to)), { recursive: true });
    copyFileSync(resolve(ROOT, from), join(dir, to));
  }
  writeFileSync(join(dir, 'package.json'), releasePackageJson());
}

/**
 * The tree runs on its own: `svc --version` from its bin/, and jq's WebAssembly resolved from there as
 * `--jq` resolves it (the tree is in a temporary folder: no node_modules of this checkout above it).
 */
function smoke(tree, version) {
  const svc = join(tree, 'bin', 'svc.js');
  const said = execFileSync(process.execPath, [svc, '--version'], { encoding: 'utf8' }).trim();
  if (said !== version) fail(`the release tree's svc --version says ${said}, not ${version}`);
  const jq = `require('node:module').createRequire(${JSON.stringify(svc)})('jq-wasm').loadJq().then((j) => console.log(JSON.stringify(j.json({ a: [1, 2] }, '.a | add'))))`;
  const sum = execFileSync(process.execPath, ['-e', jq], { cwd: tree, encoding: 'utf8' }).trim();
  if (sum !== '[3]' && sum !== '3') fail(`jq from the release tree gave ${sum}, not 3`);
}

function fail(message) {
  process.stderr.write(`release: ${message}\n`);
  process.exit(1);
}

const git = (args, o = {}) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], ...o }).trim();

function release(build) {
  const version = pkg.version;
  if (!/^\d+\.\d+\.\d+$/.test(version)) fail(`package.json version ${version} is not X.Y.Z`);
  const tag = `v${version}`;
  const major = `v${version.split('.')[0]}`;
  try { git(['rev-parse', '--git-dir']); } catch { fail('not a git checkout: clone the repository first'); }
  if (git(['status', '--porcelain', '--untracked-files=no']) !== '') fail('the checkout has uncommitted changes: a release is made from a commit');
  if (git(['tag', '--list', tag]) !== '') fail(`tag ${tag} exists already: raise the version in package.json (npm version patch) for a new release`);
  try { git(['var', 'GIT_COMMITTER_IDENT']); } catch { fail('git does not know who you are: git config user.name "…" and git config user.email "…" (the release commit and tags carry them)'); }
  const source = git(['rev-parse', 'HEAD']);
  if (build) execFileSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT, stdio: 'inherit' });

  const work = mkdtempSync(join(tmpdir(), 'svc-release-'));
  try {
    const tree = join(work, 'tree');
    writeTree(tree);
    smoke(tree, version);
    // The tree is committed through an index of its own: the branch, its index and work tree stay as they are.
    const env = { ...process.env, GIT_INDEX_FILE: join(work, 'index') };
    git(['--work-tree', tree, 'add', '--all', '--force', '.'], { env });
    const treeId = git(['write-tree'], { env });
    const commit = git(['commit-tree', treeId, '-p', source, '-m', `svc ${version}: the release tree, built from ${source}`]);
    git(['tag', '--annotate', tag, '--message', `svc ${version}`, commit]);
    git(['tag', '--force', '--annotate', major, '--message', `svc ${version} (the latest ${major}.x)`, commit]);
    // The download: the same tree, under svc-<version>/ (git archive: the same bytes for the same commit).
    const archive = `svc-${version}.tar.gz`;
    git(['archive', '--format=tar.gz', `--prefix=svc-${version}/`, '--output', join(ROOT, archive), tag]);
    const sha = createHash('sha256').update(readFileSync(join(ROOT, archive))).digest('hex');
    writeFileSync(join(ROOT, `${archive}.sha256`), `${sha}  ${archive}\n`);
    process.stdout.write([
      `release: ${tag} is ${commit} (the release tree, built from ${source}); ${major} moved to it`,
      `release: ${archive} sha256 ${sha}`,
      'Publish it (a remote of yours; the major tag moves, so it is pushed with --force):',
      `  git push origin ${tag} && git push --force origin ${major}`,
      '',
    ].join('\n'));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const at = args.indexOf('--tree');
  if (at >= 0) {
    if (!args[at + 1]) fail('--tree needs a directory');
    writeTree(resolve(args[at + 1]));
  } else {
    release(!args.includes('--no-build'));
  }
}
