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
 * Replaces the text `from` in one file of a dependency by `to` at bundle time; fails the build when
 * the text is gone (a new version of the dependency), so a change is never silently lost.
 */
function patch(pkg, file, from, to) {
  const path = packageFile(pkg, file);
  return {
    name: `patch ${pkg}/${file}`,
    setup(b) {
      b.onLoad({ filter: new RegExp(`${path.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&')}$`) }, () => {
        const text = readFileSync(path, 'utf8');
        if (!text.includes(from)) throw new Error(`'${from}' is not in ${pkg}/${file} any more: review this patch in scripts/build.mjs`);
        return { contents: text.replace(from, to), loader: 'js' };
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

const plugins = [
  noDynamicBuiltins,
  // undici loads node:http2 (and with it tls, crypto and fs/promises: ~5 ms) when its client module
  // is read, for HTTP/2 connections svc never makes (it does not offer h2): load it on first use.
  patch('undici', 'lib/dispatcher/client.js',
    "const connectH2 = require('./client-h2.js')",
    "const connectH2 = (client, socket) => require('./client-h2.js')(client, socket)"),
  // commander loads node:child_process for stand-alone executable subcommands; svc has none.
  patch('commander', 'lib/command.js',
    "const childProcess = require('node:child_process');",
    "const childProcess = { spawn: (...args) => require('node:child_process').spawn(...args) };"),
];

rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
await build({
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
  // One function expression: the script's value is the module function bin/svc.js calls.
  banner: { js: '(function (module, exports, require) {' },
  footer: { js: '})' },
  logLevel: 'warning',
});

// Top-level help, rendered by the real program (100 columns, no terminal), for bin/svc.js's fast path.
const help = execFileSync(process.execPath, ['bin/svc.js', '--help'], { env: { ...process.env, SVC_NO_FAST_HELP: '1' }, encoding: 'utf8' });
writeFileSync('dist/help.txt', help);

execFileSync(process.execPath, ['scripts/code-cache.mjs'], { stdio: 'inherit' });
