// Bundle the CLI with esbuild into one classic script, dist/svc.cjs, loaded by bin/svc.js through a
// V8 code cache (dist/svc.cjs.cache, made here by a real call: scripts/code-cache.mjs). Parts only
// some commands use (groups of the operation table, built-in commands, renderers, ora, cli-table3,
// conf, the sandbox) stay lazy: their code is in the file but runs, and is compiled, only when used.
// Why one script and not ES module chunks: see README "Performance".
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

const plugins = [
  noDynamicBuiltins,
  lazyAssertInUndici,
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
  // commander loads node:child_process for stand-alone executable subcommands; svc has none.
  patch('commander', 'lib/command.js',
    ["const childProcess = require('node:child_process');", "const childProcess = { spawn: (...args) => require('node:child_process').spawn(...args) };"]),
];

rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
// `node scripts/build.mjs --sizes`: after the build, the bundle's bytes per package (from esbuild's
// metafile), to see what a change of imports does to the size.
const sizes = process.argv.includes('--sizes');
const built = await build({
  entryPoints: ['src/entry.ts'],
  outfile: 'dist/svc.cjs',
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  minify: !process.env.SVC_BUILD_NO_MINIFY,
  sourcemap: false,
  legalComments: 'none',
  plugins,
  // jq (WebAssembly, ~1 MB) is loaded from node_modules, only when --jq is given.
  external: ['jq-wasm'],
  // One function expression: the script's value is the module function bin/svc.js calls.
  banner: { js: '(function (module, exports, require) {' },
  footer: { js: '})' },
  logLevel: 'warning',
  metafile: sizes,
});
if (sizes) {
  const [out] = Object.values(built.metafile.outputs);
  const by = new Map();
  for (const [file, { bytesInOutput }] of Object.entries(out.inputs)) {
    const m = /node_modules\/((?:@[^/]+\/)?[^/]+)\/(.*)$/.exec(file);
    const key = m ? (m[1] === 'zod' && m[2].includes('/locales/') ? 'zod (locales)' : m[1]) : file.split('/').slice(0, 2).join('/');
    by.set(key, (by.get(key) ?? 0) + bytesInOutput);
  }
  const kb = (n) => `${(n / 1024).toFixed(1)} KB`.padStart(10);
  process.stdout.write(`dist/svc.cjs: ${kb(out.bytes).trim()}\n${[...by].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${kb(n)}  ${k}`).join('\n')}\n`);
}

// bin/svc.js reads the script as latin1, which equals utf8 for ASCII (esbuild's default charset).
if (!process.env.SVC_BUILD_NO_MINIFY && /[^\x00-\x7f]/.test(readFileSync('dist/svc.cjs', 'latin1'))) throw new Error('dist/svc.cjs is not ASCII-only: bin/svc.js reads it as latin1');

// Top-level help, rendered by the real program (80 columns, no terminal), for bin/svc.js's fast path.
// (SVC_WRITE_CODE_CACHE=0: this run, made before the code cache, keeps none in the user's cache directory.)
const help = execFileSync(process.execPath, ['bin/svc.js', '--help'], { env: { ...process.env, SVC_NO_FAST_HELP: '1', SVC_WRITE_CODE_CACHE: '0' }, encoding: 'utf8' });
writeFileSync('dist/help.txt', help);

execFileSync(process.execPath, ['scripts/code-cache.mjs'], { stdio: 'inherit' });
