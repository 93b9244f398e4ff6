// The esbuild plugins of svc's bundle (scripts/build.mjs), in a module of their own: the bench
// (scripts/bench.mjs) bundles its undici floor with the same patches of undici, so that the floor pays
// for undici exactly what svc pays.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/** A file inside a package, whatever the package exports: found from the package's main file. */
function packageFile(pkg, file) {
  for (let dir = dirname(require.resolve(pkg)); dir !== dirname(dir); dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json')) && JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).name === pkg) return join(dir, file);
  }
  throw new Error(`cannot find the directory of ${pkg}`);
}

/**
 * Replaces, at bundle time, each text `from` in one file of a dependency by `to`; fails the build
 * when one is gone (a new version of the dependency), so a change is never silently lost.
 */
function patch(pkg, file, ...replacements) {
  const path = packageFile(pkg, file);
  return {
    name: `patch ${pkg}/${file}`,
    setup(b) {
      b.onLoad({ filter: new RegExp(`${path.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&')}$`) }, () => {
        let text = readFileSync(path, 'utf8');
        for (const [from, to] of replacements) {
          if (!text.includes(from)) throw new Error(`'${from}' is not in ${pkg}/${file} any more: review this patch in scripts/build.mjs`);
          text = text.replace(from, to);
        }
        return { contents: text, loader: 'js' };
      });
    },
  };
}

/**
 * dist/svc.cjs runs as a classic script (vm.Script), which has no loader for import(): a lazily
 * loaded node built-in must be a static import whose export is read where it is used.
 */
const noDynamicBuiltins = {
  name: 'no dynamic import of built-ins',
  setup(b) {
    b.onResolve({ filter: /^node:/ }, (a) => (a.kind === 'dynamic-import'
      ? { errors: [{ text: `import('${a.path}') cannot run in dist/svc.cjs: import it statically (see scripts/build.mjs)` }] }
      : undefined));
  },
};

/**
 * undici calls node:assert (~0.5 ms to load) only as assert(value, message): a stand-in that loads
 * the real one when an assertion fails, to throw the same error.
 */
const lazyAssertInUndici = {
  name: 'lazy node:assert in undici',
  setup(b) {
    b.onResolve({ filter: /^node:assert$/ }, (a) => (/[\\/]node_modules[\\/]undici[\\/]/.test(a.importer) ? { path: 'assert', namespace: 'svc-lazy' } : undefined));
    b.onLoad({ filter: /^assert$/, namespace: 'svc-lazy' }, () => ({
      contents: "module.exports = function assert (value, message) { if (!value) require('node:assert')(value, message) }",
      loader: 'js',
    }));
  },
};

/**
 * croner from its CommonJS build: from its ES module build esbuild hoists its ~20 functions to the
 * top level of dist/svc.cjs, where every call paid for them (each an object of the code cache to
 * read and a closure made at start: ~0.4 M instructions) though only a scan schedule's check runs
 * them; as CommonJS they sit in one function, run on first use. (Not in src/: `npm run docs` and
 * vitest load croner as an ES module.)
 */
const cronerAsCommonJs = {
  name: 'croner as CommonJS',
  setup(b) {
    b.onResolve({ filter: /^croner$/ }, (a) => (a.pluginData?.svcCroner ? undefined
      : b.resolve(a.path, { resolveDir: a.resolveDir, importer: a.importer, kind: 'require-call', pluginData: { svcCroner: true } })));
  },
};

export const plugins = [
  noDynamicBuiltins,
  lazyAssertInUndici,
  cronerAsCommonJs,
  // undici's client module loads node:http2 (and with it tls, crypto and fs/promises: ~5 ms) for
  // HTTP/2 connections svc never makes (it does not offer h2): loaded on first use. It loads
  // node:http (~0.8 ms) only for http.maxHeaderSize, which is 16 kB unless node was given
  // --max-http-header-size.
  patch('undici', 'lib/dispatcher/client.js',
    ["const connectH2 = require('./client-h2.js')", "const connectH2 = (client, socket) => require('./client-h2.js')(client, socket)"],
    ["const http = require('node:http')", "const http = { get maxHeaderSize () { return /--max-http-header-size/.test(`${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS ?? ''}`) ? require('node:http').maxHeaderSize : 16 * 1024 } }"]),
  // ... and its util module for the IncomingMessage class, to recognise one when it destroys a
  // stream (an object of that class exists only once node:http is loaded).
  patch('undici', 'lib/core/util.js',
    ["const { IncomingMessage } = require('node:http')", "const isIncomingMessage = (s) => s.constructor?.name === 'IncomingMessage' && s.constructor === require('node:http').IncomingMessage"],
    ['if (Object.getPrototypeOf(stream).constructor === IncomingMessage) {', 'if (isIncomingMessage(Object.getPrototypeOf(stream))) {']),
  // undici parses HTTP with WebAssembly. V8 compiles it with its baseline compiler, re-compiles hot
  // functions with its optimizing one in the background, and node waits for that at exit: ~70 ms on
  // every call. Baseline code is fast enough for HTTP parsing: `--liftoff-only`, set here, when the
  // parser is compiled, and not when the process starts: V8 then stamps every script it compiles with
  // another hash of its flags, so each node built-in loaded after it (node:vm, node:net, node:tty,
  // ...) is compiled from source instead of from the code cache node carries for it (measured: a call
  // 255-258 M instructions with the flag set at start, 239-243 M set here; docs/performance.md).
  patch('undici', 'lib/dispatcher/client-h1.js',
    // (Not where the user set these flags, in either spelling V8 reads (- or _): theirs win. bin/svc.js
    // undoes it before it makes a code cache, and while it compiles its second script.)
    // (Once a process: undici keeps the parser it compiles.)
    ['  if (useWasmSIMD) {', `  if (!/--(no[-_])?(liftoff|wasm[-_]tier[-_]up|wasm[-_]dynamic[-_]tiering)/.test(\`\${process.execArgv.join(' ')} \${process.env.NODE_OPTIONS ?? ''}\`)) {
    require('node:v8').setFlagsFromString('--liftoff-only');
    (globalThis[Symbol.for('svc.v8FlagsUndo')] ??= []).push('--no-liftoff-only', '--wasm-tier-up', '--wasm-dynamic-tiering');
    (globalThis[Symbol.for('svc.v8FlagsSet')] ??= []).push('--liftoff-only')
  }
  if (useWasmSIMD) {`]),
  // commander loads node:child_process for stand-alone executable subcommands; svc has none.
  patch('commander', 'lib/command.js',
    ["const childProcess = require('node:child_process');", "const childProcess = { spawn: (...args) => require('node:child_process').spawn(...args) };"]),
];

/** The patches of undici alone (lazy node:assert, node:http2 and node:http), for a bundle of undici by itself. */
export const undiciPlugins = plugins.filter((p) => p === lazyAssertInUndici || p.name.startsWith('patch undici/'));
