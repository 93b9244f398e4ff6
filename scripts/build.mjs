// Bundle the CLI with esbuild into two classic scripts, each loaded by bin/svc.js through a V8 code
// cache (made here by real calls: scripts/code-cache.mjs): dist/svc.cjs, what an API call runs, and
// dist/svc-more.cjs, what a plain call never runs (the built-in commands, the gate, triage, tables,
// charts, the --all and bulk engines, ora, cli-table3, conf), compiled only when a command needs it
// (scripts/bundle-chunks.mjs). Within each, lazy parts (the other groups of the operation table, the
// HTTP client) run, and are compiled, only when used. Why classic scripts and not ES module chunks,
// and why two: docs/performance.md ("What makes it fast", "Ninth round").
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { plugins } from './bundle-plugins.mjs';
import { buildChunks } from './bundle-chunks.mjs';
import { build } from 'esbuild';

rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
// `node scripts/build.mjs --sizes`: after the build, the bundle's bytes per package (from esbuild's
// metafile), to see what a change of imports does to the size.
const sizes = process.argv.includes('--sizes');
const built = await buildChunks(fileURLToPath(new URL('..', import.meta.url)), {
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
  // The version of package.json, which bin/svc.js would otherwise read and parse in every call
  // (~0.6 M instructions): src/entry.ts builtVersion. `npm pack` builds first (prepack).
  define: { __SVC_VERSION__: JSON.stringify(JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version) },
  // One function expression: the script's value is the module function bin/svc.js calls (the second
  // script's banner names __svcMain instead: scripts/bundle-chunks.mjs). First the build's name, which
  // names the code caches bin/svc.js makes for other nodes and V8 flags.
  banner: { js: `/*svc ${Date.now().toString(36)}*/(function (module, exports, require, __svcMore) {` },
  footer: { js: '})' },
  logLevel: 'warning',
});
if (sizes) {
  for (const meta of [built.main, built.more]) {
  const [out] = Object.values(meta.outputs);
  const by = new Map();
  for (const [file, { bytesInOutput }] of Object.entries(out.inputs)) {
    const m = /node_modules\/((?:@[^/]+\/)?[^/]+)\/(.*)$/.exec(file);
    const key = m ? (m[1] === 'zod' && m[2].includes('/locales/') ? 'zod (locales)' : m[1]) : file.split('/').slice(0, 2).join('/');
    by.set(key, (by.get(key) ?? 0) + bytesInOutput);
  }
  const kb = (n) => `${(n / 1024).toFixed(1)} KB`.padStart(10);
  process.stdout.write(`${Object.keys(meta.outputs)[0]}: ${kb(out.bytes).trim()}\n${[...by].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${kb(n)}  ${k}`).join('\n')}\n`);
  }
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
for (const file of ['dist/svc.cjs', 'dist/svc-more.cjs']) {
  if (!process.env.SVC_BUILD_NO_MINIFY && /[^\x00-\x7f]/.test(readFileSync(file, 'latin1'))) throw new Error(`${file} is not ASCII-only: bin/svc.js reads it as latin1`);
}

// Top-level help, rendered by the real program (80 columns, no terminal), for bin/svc.js's fast path.
// (SVC_WRITE_CODE_CACHE=0: this run, made before the code cache, keeps none in the user's cache directory.)
const help = execFileSync(process.execPath, ['bin/svc.js', '--help'], { env: { ...process.env, SVC_NO_FAST_HELP: '1', SVC_WRITE_CODE_CACHE: '0' }, encoding: 'utf8' });
writeFileSync('dist/help.txt', help);

execFileSync(process.execPath, ['scripts/code-cache.mjs'], { stdio: 'inherit' });
