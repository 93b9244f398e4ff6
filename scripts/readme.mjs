// Regenerate the README sections that come from the code (exit codes, environment).
// Run after `npm run build`'s type sources change: `node --experimental-strip-types` is not on Node 20,
// so this uses esbuild to load src/docs/readme.ts.
import { build } from 'esbuild';
import { readFileSync, writeFileSync, rmSync } from 'node:fs';

const out = 'dist/.docs.mjs';
await build({ entryPoints: ['src/docs/readme.ts'], bundle: true, platform: 'node', format: 'esm', outfile: out, logLevel: 'warning' });
const docs = await import(new URL(`../${out}`, import.meta.url).href);
rmSync(out);
let readme = readFileSync('README.md', 'utf8');
readme = docs.fillMarkers(readme, 'exit-codes', docs.exitCodesMarkdown());
readme = docs.fillMarkers(readme, 'environment', docs.environmentMarkdown());
writeFileSync('README.md', readme);
