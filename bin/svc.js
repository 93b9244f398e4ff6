#!/usr/bin/env node
'use strict';
// Tiny shim, a CommonJS script (bin/package.json) so that node does not start its ES module loader.
// `--version` and top-level help are answered without loading the CLI (scripts call them in loops);
// the help text is rendered by the real program at build time (dist/help.txt, 80 columns: it fits any
// terminal at least that wide).
const { existsSync, readFileSync } = require('node:fs');
const { join } = require('node:path');

const args = process.argv.slice(2);
const only = args.length === 1 ? args[0] : undefined;
const version = () => JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')).version;
if (only === '--version' || only === '-V') {
  process.stdout.write(`${version()}\n`);
} else {
  // (A copy without its build has no help.txt either: the program then says what is missing.)
  const help = (only === '--help' || only === '-h') && !process.env.SVC_NO_FAST_HELP && (!process.stdout.isTTY || process.stdout.columns >= 80)
    && readOrNothing(join(__dirname, '..', 'dist', 'help.txt'));
  if (help) process.stdout.write(help);
  else load(join(__dirname, '..', 'dist', 'svc.cjs')).runProcess(version());
}

/**
 * The CLI is one classic script (scripts/build.mjs), compiled from a V8 code cache made at build
 * time: V8 then neither parses nor compiles the functions a call uses, which it would otherwise do
 * on every run (node 20 has no compile cache for modules). V8 rejects a cache made by another V8
 * version or with other V8 flags (another node, or NODE_OPTIONS=--max-old-space-size=... as CI jobs
 * often set): then the script compiles from source (~30 ms more), and this run makes a cache for
 * this node and these flags in the user's cache directory, used from the next run on.
 */
function load(file) {
  if (!existsSync(file)) {
    // A copy of the sources without their build (e.g. installed from a git URL): say so, no stack trace.
    process.stderr.write(`svc: error: ${file} is missing: this copy of svc was not built. Install a package made with \`npm pack\` (see README "Install"), or run \`npm ci && npm run build\` in a clone.\n`);
    process.exit(70);
  }
  const { Script } = require('node:vm');
  // The build runs svc with SVC_WRITE_CODE_CACHE: '1' to make dist/svc.cjs.cache, '0' for other runs.
  const building = process.env.SVC_WRITE_CODE_CACHE === '1';
  const own = process.env.SVC_WRITE_CODE_CACHE === undefined ? ownCacheFile(file) : undefined;
  // (This machine's own cache is usually absent: asked first, as a failed read throws, ~0.1 ms.)
  const cachedData = (own && existsSync(own) && readOrNothing(own)) || readOrNothing(`${file}.cache`);
  // The build makes the script ASCII-only, so latin1 reads it as utf8 would, only faster.
  const script = new Script(readFileSync(file, 'latin1'), { filename: file, cachedData });
  if (building) {
    // Build time (scripts/code-cache.mjs): after the run, so it holds every function the call compiled.
    process.once('exit', () => require('node:fs').writeFileSync(`${file}.cache`, cacheOf(script)));
  } else if (own && script.cachedDataRejected !== false) {
    process.once('exit', () => writeOwnCache(own, script));
  }
  const module = { exports: {} };
  script.runInThisContext()(module, module.exports, require);
  return module.exports;
}

function readOrNothing(path) {
  try {
    return readFileSync(path);
  } catch {
    return undefined;
  }
}

/**
 * The cache file of this script for this node and these flags: named by the script's size and time
 * (V8 checks a cache against the length of the source only) and a hash of node's version and flags.
 */
function ownCacheFile(file) {
  const env = process.env;
  const base = env.XDG_CACHE_HOME || (process.platform === 'win32' ? env.LOCALAPPDATA : env.HOME && join(env.HOME, process.platform === 'darwin' ? 'Library/Caches' : '.cache'));
  if (!base) return undefined;
  let stat;
  try {
    stat = require('node:fs').statSync(file);
  } catch {
    return undefined;
  }
  let h = 0x811c9dc5;
  for (const c of `${process.version} ${process.arch} ${process.execArgv.join(' ')} ${env.NODE_OPTIONS ?? ''}`) h = Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0;
  return join(base, 'svc', 'code-cache', `${stat.size}-${Math.round(stat.mtimeMs)}-${h.toString(16)}.cache`);
}

/**
 * The script's code cache, made with the V8 flags the script was compiled with. V8 stamps a cache with
 * a hash of its flags and rejects one whose hash differs. Flags svc sets while it runs (undici's
 * parser is compiled with `--liftoff-only`, scripts/bundle-plugins.mjs; listings set
 * `--optimize-for-size`, src/listing/heap.ts) leave here, in the global list `svc.v8FlagsUndo`, the
 * flags that undo them, implications included (node 20 and 22 keep those when a flag is unset):
 * set before the cache is made, they give the hash the run started with.
 */
function cacheOf(script) {
  const undo = globalThis[Symbol.for('svc.v8FlagsUndo')];
  if (undo) {
    const { setFlagsFromString } = require('node:v8');
    for (const flag of undo) setFlagsFromString(flag);
  }
  return script.createCachedData();
}

/** Once, at the exit of a run whose cache was rejected; a failure only means the next run compiles again. */
function writeOwnCache(path, script) {
  try {
    const fs = require('node:fs');
    const { dirname, basename } = require('node:path');
    const dir = dirname(path);
    fs.mkdirSync(dir, { recursive: true });
    // Caches of other builds of svc are of no more use.
    const [size, time] = basename(path).split('-');
    for (const old of fs.readdirSync(dir)) if (!old.startsWith(`${size}-${time}-`)) fs.rmSync(join(dir, old), { force: true });
    const tmp = `${path}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, cacheOf(script));
    fs.renameSync(tmp, path);
  } catch { /* read-only or full: compiled from source next time too */ }
}
