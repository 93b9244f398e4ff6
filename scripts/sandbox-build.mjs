// Shared by `npm run demo` and `npm run sandbox`: install dependencies if they are missing (a fresh
// clone), and build dist/ if it is missing or older than the sources.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

function run(cmd, args, what) {
  const r = spawnSync(cmd, args, { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'], shell: process.platform === 'win32' });
  if (r.status !== 0) {
    process.stderr.write(`svc: error: ${what} failed (exit ${r.status ?? r.signal}); run it by hand to see why\n`);
    process.exit(1);
  }
}

export function ensureBuilt(say = (line) => process.stderr.write(line + '\n')) {
  if (!existsSync(join(ROOT, 'node_modules', 'esbuild')) || !existsSync(join(ROOT, 'node_modules', 'commander'))) {
    say('Installing dependencies (npm ci), once...');
    run('npm', ['ci', '--no-audit', '--no-fund'], 'npm ci');
  }
  const bundle = join(ROOT, 'dist', 'svc.cjs');
  if (!existsSync(bundle) || statSync(bundle).mtimeMs < newestMtime(join(ROOT, 'src'))) {
    say('Building svc (dist/ is missing or older than src/)...');
    run(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], 'the build');
  }
}
