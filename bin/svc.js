#!/usr/bin/env node
'use strict';
// Tiny shim, a CommonJS script (bin/package.json) so that node does not start its ES module loader.
// `--version` and top-level help are answered without loading the CLI (scripts call them in loops);
// the help text is rendered by the real program at build time (dist/help.txt).
const { existsSync, readFileSync } = require('node:fs');
const { join } = require('node:path');

const args = process.argv.slice(2);
const only = args.length === 1 ? args[0] : undefined;
const version = () => JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')).version;
if (only === '--version' || only === '-V') {
  process.stdout.write(`${version()}\n`);
} else if ((only === '--help' || only === '-h') && !process.env.SVC_NO_FAST_HELP && (!process.stdout.isTTY || process.stdout.columns >= 100)) {
  process.stdout.write(readFileSync(join(__dirname, '..', 'dist', 'help.txt'), 'utf8'));
} else {
  load(join(__dirname, '..', 'dist', 'svc.cjs')).runProcess(version());
}

/**
 * The CLI is one classic script (scripts/build.mjs), compiled from a V8 code cache made at build
 * time: V8 then neither parses nor compiles the functions a call uses, which it would otherwise do
 * on every run (node 20 has no compile cache for modules). A cache made by another node version or
 * with other V8 flags is rejected by V8, and the script is compiled from source as usual.
 */
function load(file) {
  if (!existsSync(file)) {
    // A copy of the sources without their build (e.g. installed from a git URL): say so, no stack trace.
    process.stderr.write(`svc: error: ${file} is missing: this copy of svc was not built. Install a package made with \`npm pack\` (see README "Install"), or run \`npm ci && npm run build\` in a clone.\n`);
    process.exit(70);
  }
  const { setFlagsFromString } = require('node:v8');
  const { Script } = require('node:vm');
  // undici parses HTTP with WebAssembly. V8 compiles it with its baseline compiler, re-compiles hot
  // functions with its optimizing one in the background, and node waits for that at exit: ~70 ms
  // on every call. Baseline code is fast enough for HTTP parsing. Set before the script is compiled:
  // the code cache records the flags it was made with.
  setFlagsFromString('--liftoff-only');
  let cachedData;
  try {
    cachedData = readFileSync(`${file}.cache`);
  } catch { /* no cache: compiled from source */ }
  // The build makes the script ASCII-only, so latin1 reads it as utf8 would, only faster.
  const script = new Script(readFileSync(file, 'latin1'), { filename: file, cachedData });
  if (process.env.SVC_WRITE_CODE_CACHE === '1') {
    // Build time (scripts/code-cache.mjs): after the run, so it holds every function the call compiled.
    process.once('exit', () => require('node:fs').writeFileSync(`${file}.cache`, script.createCachedData()));
  }
  const module = { exports: {} };
  script.runInThisContext()(module, module.exports, require);
  return module.exports;
}
