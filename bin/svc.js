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
  answer(`${version()}\n`);
} else {
  // (A copy without its build has no help.txt either: the program then says what is missing.)
  const help = (only === '--help' || only === '-h') && !process.env.SVC_NO_FAST_HELP && (!process.stdout.isTTY || process.stdout.columns >= 80)
    && readOrNothing(join(__dirname, '..', 'dist', 'help.txt'));
  if (help) answer(help);
  // The version the build read from package.json (scripts/build.mjs), else package.json's own.
  else { const main = cli(); main.runProcess(main.builtVersion ?? version()); }
}

/**
 * The CLI is two scripts (scripts/bundle-chunks.mjs): svc.cjs, what an API call runs, and
 * svc-more.cjs, the rest, compiled only when svc.cjs first asks for one of its modules. Each
 * takes the other's modules from it (`__svcMore`, `__svcModule`).
 */
function cli() {
  const dist = join(__dirname, '..', 'dist');
  let more;
  const main = load(join(dist, 'svc.cjs'), '1', (path) => (more ??= load(join(dist, 'svc-more.cjs'), 'more', (p) => main.__svcModule(p)))(path));
  return main;
}

/**
 * A fast path's whole output. A stdout that cannot be written ends as the program's own does
 * (src/entry.ts): a reader that went away (EPIPE, `svc --help | head -1`) is exit 0, quietly; any
 * other failure (a full disk, an I/O error) is the program's one line and exit 9. Without a
 * handler node threw the error with a stack trace (exit 1). The CLI is loaded only then.
 */
function answer(text) {
  process.stdout.on('error', (err) => {
    if (err.code === 'EPIPE') process.exit(0);
    cli().stdoutFailed(err);
  });
  process.stdout.write(text);
}

/**
 * Each script of the CLI is a classic script (scripts/build.mjs), compiled from a V8 code cache made at build
 * time: V8 then neither parses nor compiles the functions a call uses, which it would otherwise do
 * on every run (node 20 has no compile cache for modules). V8 rejects a cache made by another V8
 * version or with other V8 flags (another node, or NODE_OPTIONS=--max-old-space-size=... as CI jobs
 * often set): then the script compiles from source (~30 ms more), and this run makes a cache for
 * this node and these flags in the user's cache directory, used from the next run on.
 */
function load(file, cacheRun, link) {
  // The build makes the script ASCII-only, so latin1 reads it as utf8 would, only faster.
  const source = readOrNothing(file, 'latin1');
  if (source === undefined) {
    // A copy of the sources without their build (e.g. installed from a git URL): say so, no stack trace.
    process.stderr.write(`svc: error: ${file} is missing: this copy of svc was not built. Install a package made with \`npm pack\` (see README "Install"), or run \`npm ci && npm run build\` in a clone.\n`);
    process.exit(70);
  }
  const { Script } = require('node:vm');
  const env = process.env;
  // The build runs svc with SVC_WRITE_CODE_CACHE: '1' to make dist/svc.cjs.cache, 'more' to make
  // dist/svc-more.cjs.cache, '0' for other runs.
  const building = env.SVC_WRITE_CODE_CACHE === cacheRun;
  const own = env.SVC_WRITE_CODE_CACHE === undefined ? ownCacheFile(file, source) : undefined;
  // (This machine's own cache is usually absent: asked first, as a failed read throws, ~0.1 ms.)
  const cachedData = (own && existsSync(own) && readOrNothing(own)) || readOrNothing(`${file}.cache`);
  const script = atStartFlags(() => new Script(source, { filename: file, cachedData }));
  if (building) {
    // Build time (scripts/code-cache.mjs): after the run, so it holds every function the call compiled.
    process.once('exit', () => require('node:fs').writeFileSync(`${file}.cache`, cacheOf(script)));
  } else if (own && script.cachedDataRejected !== false) {
    process.once('exit', () => writeOwnCache(own, script));
  }
  const module = { exports: {} };
  script.runInThisContext()(module, module.exports, require, link);
  return module.exports;
}

function readOrNothing(path, encoding) {
  try {
    return readFileSync(path, encoding);
  } catch {
    return undefined;
  }
}

/**
 * The cache file of this script for this node and these flags: named by the script (svc, svc-more),
 * its build (the script's first line, `/*svc <build>*\/`: V8 checks a cache against the length of
 * the source only) and a hash of node's version and flags.
 */
function ownCacheFile(file, source) {
  const env = process.env;
  const base = env.XDG_CACHE_HOME || (process.platform === 'win32' ? env.LOCALAPPDATA : env.HOME && join(env.HOME, process.platform === 'darwin' ? 'Library/Caches' : '.cache'));
  const build = /^\/\*svc ([0-9a-z]+)\*\//.exec(source.slice(0, 32));
  if (!base || !build) return undefined;
  let h = 0x811c9dc5;
  for (const c of `${process.version} ${process.arch} ${process.execArgv.join(' ')} ${env.NODE_OPTIONS ?? ''}`) h = Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0;
  return join(base, 'svc', 'code-cache', `${file.endsWith('svc-more.cjs') ? 'svc-more' : 'svc'}-${build[1]}-${h.toString(16)}.cache`);
}

/**
 * The script's code cache, made with the V8 flags the script was compiled with. V8 stamps a cache with
 * a hash of its flags and rejects one whose hash differs. Flags svc sets while it runs (undici's
 * parser is compiled with `--liftoff-only`, scripts/bundle-plugins.mjs; listings set
 * `--optimize-for-size`, src/listing/heap.ts) leave here, in the global list `svc.v8FlagsUndo`, the
 * flags that undo them, implications included (node 20 and 22 keep those when a flag is unset):
 * set before the cache is made, they give the hash the run started with (and in `svc.v8FlagsSet`
 * the flags themselves, for atStartFlags).
 */
function cacheOf(script) {
  const undo = globalThis[Symbol.for('svc.v8FlagsUndo')];
  if (undo) {
    const { setFlagsFromString } = require('node:v8');
    for (const flag of undo) setFlagsFromString(flag);
  }
  return script.createCachedData();
}

/**
 * `make()` run with the V8 flags the process started with: the second script is compiled when a
 * command first needs it, which may be after undici set `--liftoff-only` (a table, after its call),
 * and V8 accepts its code cache only under the flags it was made with (those of the start, see
 * cacheOf). The flags svc set (`svc.v8FlagsSet`) are set again after.
 */
function atStartFlags(make) {
  const undo = globalThis[Symbol.for('svc.v8FlagsUndo')];
  if (!undo || undo.length === 0) return make();
  const { setFlagsFromString } = require('node:v8');
  for (const flag of undo) setFlagsFromString(flag);
  try {
    return make();
  } finally {
    for (const flag of globalThis[Symbol.for('svc.v8FlagsSet')] ?? []) setFlagsFromString(flag);
  }
}

/** Once, at the exit of a run whose cache was rejected; a failure only means the next run compiles again. */
function writeOwnCache(path, script) {
  try {
    const fs = require('node:fs');
    const { dirname } = require('node:path');
    const dir = dirname(path);
    fs.mkdirSync(dir, { recursive: true });
    // Caches of other builds of svc are of no more use (both scripts of a build have its name).
    const build = /^svc(?:-more)?-([0-9a-z]+)-/.exec(require('node:path').basename(path))[1];
    for (const old of fs.readdirSync(dir)) if (!new RegExp(`^svc(-more)?-${build}-`).test(old)) fs.rmSync(join(dir, old), { force: true });
    const tmp = `${path}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, cacheOf(script));
    fs.renameSync(tmp, path);
  } catch { /* read-only or full: compiled from source next time too */ }
}
