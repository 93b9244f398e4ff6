// Bundle the CLI with esbuild into one classic script, dist/svc.cjs, loaded by bin/svc.js through a
// V8 code cache (dist/svc.cjs.cache, made here by a real call: scripts/code-cache.mjs). Parts only
// some commands use (groups of the operation table, built-in commands, renderers, ora, cli-table3,
// conf, the sandbox) stay lazy: their code is in the file but runs, and is compiled, only when used.
// Why one script and not ES module chunks: see README "Performance".
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { plugins } from './bundle-plugins.mjs';

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

// The action's entry (action.yml, `runs.using: node24`): a plain script the runner runs with its own
// Node; it runs bin/svc.js beside it (src/action/main.ts).
await build({
  entryPoints: ['src/action/main.ts'],
  outfile: 'dist/action.cjs',
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  minify: !process.env.SVC_BUILD_NO_MINIFY,
  legalComments: 'none',
  logLevel: 'warning',
});

// bin/svc.js reads the script as latin1, which equals utf8 for ASCII (esbuild's default charset).
if (!process.env.SVC_BUILD_NO_MINIFY && /[^\x00-\x7f]/.test(readFileSync('dist/svc.cjs', 'latin1'))) throw new Error('dist/svc.cjs is not ASCII-only: bin/svc.js reads it as latin1');

// Top-level help, rendered by the real program (80 columns, no terminal), for bin/svc.js's fast path.
// (SVC_WRITE_CODE_CACHE=0: this run, made before the code cache, keeps none in the user's cache directory.)
const help = execFileSync(process.execPath, ['bin/svc.js', '--help'], { env: { ...process.env, SVC_NO_FAST_HELP: '1', SVC_WRITE_CODE_CACHE: '0' }, encoding: 'utf8' });
writeFileSync('dist/help.txt', help);

execFileSync(process.execPath, ['scripts/code-cache.mjs'], { stdio: 'inherit' });
