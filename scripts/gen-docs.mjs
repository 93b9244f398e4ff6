// Regenerate the files derived from the command table: completions/svc.bash, completions/_svc,
// completions/svc.fish, docs/reference.md and the help files the help test compares
// (test/e2e/__snapshots__/help-*.txt); and the generated blocks of hand-written files (docs/security.md's
// table of answer checks, from src/answers/checks.ts). `node scripts/gen-docs.mjs --check` only reports
// the stale ones (exit 1). The generator is TypeScript: bundle it with esbuild, then run it.
import { build } from 'esbuild';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const check = process.argv.includes('--check');
// Inside node_modules so that the bundle's imports of packages resolve.
await mkdir(join(root, 'node_modules/.cache'), { recursive: true });
const dir = await mkdtemp(join(root, 'node_modules/.cache/svc-docs-'));
try {
  const outfile = join(dir, 'docs.mjs');
  await build({
    entryPoints: [join(root, 'src/docs/generated.ts')],
    outfile, bundle: true, format: 'esm', platform: 'node', target: 'node20', packages: 'external', logLevel: 'warning',
  });
  const { generatedFiles, generatedBlocks, withGeneratedBlocks } = await import(pathToFileURL(outfile).href);
  const files = await generatedFiles();
  // Hand-written files with generated blocks (docs/security.md's table of checks): filled in place.
  for (const path of Object.keys(generatedBlocks())) files[path] = withGeneratedBlocks(path, await readFile(join(root, path), 'utf8'));
  let stale = 0;
  for (const [path, text] of Object.entries(files)) {
    const target = join(root, path);
    const current = await readFile(target, 'utf8').catch(() => undefined);
    if (current === text) continue;
    stale++;
    if (check) { console.error(`stale: ${path}`); continue; }
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, text);
    console.error(`wrote ${path}`);
  }
  if (check && stale) { console.error('run: npm run docs'); process.exitCode = 1; }
  else if (!stale) console.error('generated files are up to date');
} finally {
  await rm(dir, { recursive: true, force: true });
}
