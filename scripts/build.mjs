// Bundle the CLI with esbuild: one entry, one chunk per lazily loaded part (operation groups,
// built-in commands, renderers), so a command loads only what it uses.
import { build } from 'esbuild';
import { rm } from 'node:fs/promises';

await rm(new URL('../dist', import.meta.url), { recursive: true, force: true });
await build({
  entryPoints: { svc: 'src/entry.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  minify: true,
  sourcemap: false,
  legalComments: 'none',
  chunkNames: 'chunks/[name]-[hash]',
  // CommonJS dependencies inside an ESM bundle still call require() for node built-ins.
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  logLevel: 'warning',
});

// Top-level help, rendered by the real program (100 columns, no terminal), for bin/svc.js's fast path.
const { execFileSync } = await import('node:child_process');
const { writeFileSync } = await import('node:fs');
const help = execFileSync(process.execPath, ['bin/svc.js', '--help'], { env: { ...process.env, SVC_NO_FAST_HELP: '1' }, encoding: 'utf8' });
writeFileSync('dist/help.txt', help);
